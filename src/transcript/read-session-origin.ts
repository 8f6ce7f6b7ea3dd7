/**
 * Where a session ran and what it was called, as its transcript records them: Claude Code writes `cwd` and
 * `sessionId` on its lines, Factory droid a `session_start` line with `cwd` and `id`. Reads the start of the
 * file line by line and stops as soon as both are known, after a bounded number of lines, or at a bounded number
 * of bytes: a file of one endless line never makes it hold more than that.
 */
import { open } from 'node:fs/promises';
import { parseJsonObjectLine } from './parse-transcript-line.js';
import { forEachLine } from './read-lines.js';
import { transcriptReadError } from './read-transcript.js';

export interface SessionOrigin {
  cwd: string | null;
  sessionId: string | null;
}

/** Lines looked at before giving up: the fields sit on the first lines of every shape seen. */
const MAX_LINES = 5_000;
/** Bytes read at most from the start of the file. */
export const MAX_ORIGIN_BYTES = 16 * 1024 * 1024;
/** A line longer than this is tool output, never the one that names the session. */
const MAX_ORIGIN_LINE_CHARS = 1_000_000;

const text = (value: unknown): string | null => (typeof value === 'string' && value.trim() !== '' ? value : null);

/** Thrown from the line callback to end the read early. */
const STOP = Symbol('stop');

export async function readSessionOrigin(path: string): Promise<SessionOrigin> {
  const origin: SessionOrigin = { cwd: null, sessionId: null };
  let seen = 0;
  const onLine = (line: string): void => {
    seen += 1;
    if (seen > MAX_LINES) throw STOP;
    if (line.length > MAX_ORIGIN_LINE_CHARS) return;
    const record = parseJsonObjectLine(line);
    if (record === undefined) return;
    origin.cwd ??= text(record['cwd']);
    origin.sessionId ??= text(record['sessionId']) ?? text(record['session_id']) ?? (record['type'] === 'session_start' ? text(record['id']) : null);
    if (origin.cwd !== null && origin.sessionId !== null) throw STOP;
  };
  try {
    const handle = await open(path, 'r');
    try {
      // The span is the bound: a line cut at its end is not JSON and is skipped.
      await forEachLine(handle, { start: 0, end: MAX_ORIGIN_BYTES, maxLineBytes: MAX_ORIGIN_BYTES, tooLong: () => new Error('unreachable') }, onLine);
    } finally {
      await handle.close();
    }
  } catch (err) {
    if (err !== STOP) throw transcriptReadError(err, path);
  }
  return origin;
}
