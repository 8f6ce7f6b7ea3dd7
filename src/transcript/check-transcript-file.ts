/**
 * Whether a file is a session transcript recall can read, told before anything else is asked for (a model, a
 * project, the store): a missing file, a folder, an empty file, a binary file, one JSON document and a file of
 * other text (a README) each get their own words. A transcript passes as soon as one of its lines is a
 * session event, so a large one is not read to its end here.
 */
import { open, stat } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { RecallError } from '../core/errors.js';
import { parseJsonObjectLine, parseTranscriptRecord } from './parse-transcript-line.js';
import { forEachLine } from './read-lines.js';
import { transcriptReadError } from './read-transcript.js';

/** The agents whose session files recall reads, for messages and help. */
export const SESSION_FORMATS = 'the JSONL session files of Claude Code, Factory droid, Codex CLI, Gemini CLI, GitHub Copilot CLI and Qwen Code';

/** Where each agent keeps them, for --help. */
export const SESSION_LOCATIONS = [
  'Claude Code: ~/.claude/projects/<project>/<session>.jsonl',
  'Factory droid: ~/.factory/sessions/<slug>/<session>.jsonl',
  'Codex CLI: $CODEX_HOME/sessions/YYYY/MM/DD/rollout-*.jsonl (default ~/.codex)',
  'Gemini CLI: ~/.gemini/tmp/<project>/chats/session-*.jsonl',
  'GitHub Copilot CLI: $COPILOT_HOME/session-state/<session>/events.jsonl (default ~/.copilot)',
  'Qwen Code: ~/.qwen/projects/<sanitized cwd>/chats/<session>.jsonl',
];

/** Bytes looked at for NUL characters. */
const SNIFF_BYTES = 8192;
/** Up to this size, a file none of whose lines is a JSON object is tried as one JSON document. */
const WHOLE_JSON_BYTES = 8 * 1024 * 1024;
/** A line longer than this is not looked at (the reader's own limit applies when the file is read). */
const MAX_LINE_BYTES = 16 * 1024 * 1024;

/** Thrown inside the line loop to stop at the first session event, or at a line too long to look at here. */
class Stop extends Error {}

/** Resolves when `path` is a transcript; throws a coded error saying what it is instead. */
export async function checkTranscriptFile(path: string): Promise<void> {
  let size: number;
  try {
    const info = await stat(path);
    if (info.isDirectory()) throw new RecallError('TRANSCRIPT_UNREADABLE', `${path} is a folder: give one session file in it (${SESSION_FORMATS})`);
    if (!info.isFile()) throw new RecallError('TRANSCRIPT_UNREADABLE', `${path} is not a regular file: give a session file (${SESSION_FORMATS})`);
    size = info.size;
  } catch (err) {
    throw transcriptReadError(err, path);
  }
  let handle: FileHandle | undefined;
  try {
    handle = await open(path, 'r');
    await inspect(handle, path, size);
  } catch (err) {
    throw transcriptReadError(err, path);
  } finally {
    await handle?.close();
  }
}

async function inspect(handle: FileHandle, path: string, size: number): Promise<void> {
  const head = Buffer.alloc(Math.min(SNIFF_BYTES, size));
  const { bytesRead } = await handle.read(head, 0, head.length, 0);
  if (head.subarray(0, bytesRead).includes(0)) {
    throw new RecallError('TRANSCRIPT_UNREADABLE', `${path} is a binary file (it holds NUL bytes); recall reads ${SESSION_FORMATS}`);
  }
  let lines = 0;
  let objects = 0;
  let sessionRecords = 0;
  try {
    await forEachLine(handle, { start: 0, maxLineBytes: MAX_LINE_BYTES, tooLong: () => new Stop() }, (line) => {
      const record = parseJsonObjectLine(line);
      if (record === undefined) {
        if (line.replace(/^\uFEFF/, '').trim() !== '') lines += 1;
        return;
      }
      lines += 1;
      objects += 1;
      if (parseTranscriptRecord(record).length > 0) throw new Stop();
      if (isSessionRecord(record)) sessionRecords += 1;
    });
  } catch (err) {
    // A session event, or a line too long to look at here: the reader itself judges those.
    if (err instanceof Stop) return;
    throw err;
  }
  if (lines === 0) throw new RecallError('TRANSCRIPT_UNREADABLE', `${path} is empty: a session file holds one JSON event per line (${SESSION_FORMATS})`);
  if (objects === 0 && (await isOneJsonDocument(handle, size))) {
    throw new RecallError('TRANSCRIPT_UNREADABLE', `${path} is one JSON document over ${lines} lines, not JSON Lines: recall reads ${SESSION_FORMATS}, one JSON event per line`);
  }
  if (sessionRecords > 0) {
    throw new RecallError('TRANSCRIPT_UNREADABLE', `${path} holds no messages: ${lines === 1 ? 'its one line is a session record' : `its ${lines} lines are session records`} (a start, settings, progress), without a user or assistant message to read`);
  }
  const all = lines === 1 ? 'its one line is not' : `none of its ${lines} lines is`;
  const what = objects === 0 ? `${all} JSON` : `${all} a session event (${objects === lines ? 'JSON of another kind' : `${objects} of them JSON of another kind`})`;
  throw new RecallError('TRANSCRIPT_UNREADABLE', `${path} is not a transcript: ${what}; recall reads ${SESSION_FORMATS}`);
}

/** Record types of agents' session files that carry no message (a session's start, progress, snapshots). */
const SESSION_RECORD_TYPES = new Set(['session_meta', 'session_start', 'progress', 'system', 'summary', 'file-history-snapshot', 'queue-operation', 'turn_context', 'event_msg']);

/** Whether a JSON line is a session file's own record without a message: a session id, a known type, Copilot's `area.event`. */
function isSessionRecord(record: Record<string, unknown>): boolean {
  const type = record['type'];
  if (typeof type === 'string' && (SESSION_RECORD_TYPES.has(type) || /^[a-z]+\.[a-z_]+$/.test(type))) return true;
  return typeof record['sessionId'] === 'string' || (typeof record['projectHash'] === 'string' && typeof record['startTime'] === 'string') || '$set' in record;
}

async function isOneJsonDocument(handle: FileHandle, size: number): Promise<boolean> {
  if (size > WHOLE_JSON_BYTES) return false;
  const text = (await handle.readFile({ encoding: 'utf8' })).replace(/^\uFEFF/, '');
  // readFile reads from the current position, which forEachLine's positional reads never moved.
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
