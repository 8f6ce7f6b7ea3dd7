/**
 * Where a session ran and what it was called, as its transcript records them: Claude Code writes `cwd` and
 * `sessionId` on its lines, Factory droid a `session_start` line with `cwd` and `id`. Streams the file and
 * stops as soon as both are known (or after a bounded number of lines).
 */
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { parseJsonObjectLine } from './parse-transcript-line.js';
import { transcriptReadError } from './read-transcript.js';

export interface SessionOrigin {
  cwd: string | null;
  sessionId: string | null;
}

/** Lines looked at before giving up: the fields sit on the first lines of every shape seen. */
const MAX_LINES = 5_000;

const text = (value: unknown): string | null => (typeof value === 'string' && value.trim() !== '' ? value : null);

export async function readSessionOrigin(path: string): Promise<SessionOrigin> {
  const origin: SessionOrigin = { cwd: null, sessionId: null };
  const stream = createReadStream(path, { encoding: 'utf8' });
  const lines = createInterface({ input: stream, crlfDelay: Infinity });
  let seen = 0;
  try {
    for await (const line of lines) {
      seen += 1;
      if (seen > MAX_LINES) break;
      // A line longer than this is tool output, never the one that names the session.
      if (line.length > 1_000_000) continue;
      const record = parseJsonObjectLine(line);
      if (record === undefined) continue;
      origin.cwd ??= text(record['cwd']);
      origin.sessionId ??= text(record['sessionId']) ?? text(record['session_id']) ?? (record['type'] === 'session_start' ? text(record['id']) : null);
      if (origin.cwd !== null && origin.sessionId !== null) break;
    }
  } catch (err) {
    throw transcriptReadError(err, path);
  } finally {
    lines.close();
    stream.destroy();
  }
  return origin;
}
