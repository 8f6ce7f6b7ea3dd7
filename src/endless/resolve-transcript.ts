/**
 * `<transcript.jsonl | session-id>` to a file: an existing path is taken as is; anything else is
 * looked up as `<claude dir>/projects/<any project>/<id>.jsonl`.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { RecallError } from '../core/errors.js';

export function resolveTranscript(arg: string, claudeDir: string, cwd: string): string {
  const asPath = resolve(cwd, arg);
  if (existsSync(asPath)) {
    if (statSync(asPath).isDirectory()) throw new RecallError('INPUT_INVALID', `${asPath} is a folder: give one session file in it (<session id>.jsonl), or a session id`);
    if (!statSync(asPath).isFile()) throw new RecallError('INPUT_INVALID', `${asPath} is not a regular file: give a session file or a session id`);
    return asPath;
  }
  if (arg.includes('/') || arg.includes('\\') || arg.endsWith('.jsonl')) throw new RecallError('TRANSCRIPT_MISSING', `transcript not found: ${asPath}`);
  if (!/^[A-Za-z0-9._-]+$/.test(arg)) throw new RecallError('INPUT_INVALID', `not a session id or a transcript path: ${arg}`);
  const projects = join(claudeDir, 'projects');
  let folders: string[] = [];
  try {
    folders = readdirSync(projects);
  } catch {
    // No projects folder: nothing to find.
  }
  for (const folder of folders) {
    const candidate = join(projects, folder, `${arg}.jsonl`);
    if (existsSync(candidate)) return candidate;
  }
  throw new RecallError('TRANSCRIPT_MISSING', `no transcript for session ${arg} under ${projects}`);
}
