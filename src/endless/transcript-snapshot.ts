/**
 * A transcript as it is at one moment: the bytes up to the size seen when the file was opened, so a
 * session that keeps appending cannot tear a line in half under us. A last line without its newline
 * is dropped when it does not parse (it is still being written); any other line that is not a JSON
 * object makes the whole file refused, with its line number.
 *
 * Lines stay byte views of the file (`lines[i]` is a slice of `bytes`): a fork writes the lines it
 * does not change back as the very same bytes, and each line is decoded on its own, so the many
 * ASCII-only lines of a transcript never pay for the few that hold other characters (measured: one
 * UTF-8 decode of a whole 12.5 MB transcript made every later string operation on it two-byte and
 * cost more than parsing it).
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { RecallError } from '../core/errors.js';
import { isObject } from '../core/is-object.js';

type Json = Record<string, unknown>;

export interface TranscriptSnapshot {
  path: string;
  /** The bytes read. */
  bytes: Buffer;
  /** Non-blank lines, without their newline: views of `bytes`. */
  lines: Buffer[];
  records: Json[];
  size: number;
  mtimeMs: number;
  /** Permission bits of the file; what a fork or an in-place rewrite gives the file it writes. */
  mode: number;
  droppedPartialTail: boolean;
}

export async function readTranscriptSnapshot(path: string): Promise<TranscriptSnapshot> {
  let buffer: Buffer;
  let mtimeMs: number;
  let mode: number;
  try {
    const fd = openSync(path, 'r');
    try {
      const stat = fstatSync(fd);
      if (!stat.isFile()) throw new RecallError('TRANSCRIPT_UNREADABLE', `not a regular file: ${path}`);
      mtimeMs = stat.mtimeMs;
      mode = stat.mode & 0o777;
      buffer = Buffer.allocUnsafe(stat.size);
      let offset = 0;
      while (offset < stat.size) {
        const bytesRead = readSync(fd, buffer, offset, stat.size - offset, offset);
        if (bytesRead === 0) break;
        offset += bytesRead;
      }
      buffer = buffer.subarray(0, offset);
    } finally {
      closeSync(fd);
    }
  } catch (err) {
    // Loaded on this path only: the transcript reader's module graph is not needed to fork.
    const { transcriptReadError } = await import('../transcript/read-transcript.js');
    throw transcriptReadError(err, path);
  }
  if (buffer.includes(0)) throw new RecallError('TRANSCRIPT_UNREADABLE', `${path} is a binary file (it holds NUL bytes), not a session; nothing was written`);
  return parseSnapshot(path, buffer, mtimeMs, mode);
}

const NEWLINE = 0x0a;

export function parseSnapshot(path: string, bytes: Buffer, mtimeMs: number, mode = 0o600): TranscriptSnapshot {
  const lines: Buffer[] = [];
  const records: Json[] = [];
  let droppedPartialTail = false;
  let lineNumber = 0;
  for (let start = 0; start < bytes.length; ) {
    const newline = bytes.indexOf(NEWLINE, start);
    const end = newline === -1 ? bytes.length : newline;
    lineNumber += 1;
    const text = bytes.toString('utf8', start, end);
    const view = bytes.subarray(start, end);
    start = end + 1;
    // A transcript line starts with `{`; only other lines can be blank.
    if (text.charCodeAt(0) !== 0x7b && text.trim() === '') continue;
    const record = parseObject(text);
    if (record === undefined) {
      // The last line without its newline is still being written: leave it out.
      if (newline === -1) {
        droppedPartialTail = true;
        break;
      }
      throw new RecallError('TRANSCRIPT_UNREADABLE', `${path} is not a Claude Code session: line ${lineNumber} is not a JSON object; nothing was written`);
    }
    lines.push(view);
    records.push(record);
  }
  if (records.length === 0) throw new RecallError('TRANSCRIPT_UNREADABLE', `${path} is empty: no session lines to compress; nothing was written`);
  return { path, bytes, lines, records, size: bytes.length, mtimeMs, mode, droppedPartialTail };
}

/**
 * A fork, an in-place compression or a backfill reads Claude Code's message lines (`{type, sessionId, message}`), which
 * `claude --resume` loads: a file with none (another agent's session, or JSON of another kind) is refused
 * before anything is written, rather than copied unchanged under a session id nothing would resume.
 */
export function requireClaudeSession(snapshot: TranscriptSnapshot): void {
  const isMessage = (r: Json): boolean => (r['type'] === 'user' || r['type'] === 'assistant') && isObject(r['message']) && typeof r['sessionId'] === 'string';
  if (snapshot.records.some(isMessage)) return;
  throw new RecallError(
    'TRANSCRIPT_UNREADABLE',
    `${snapshot.path} holds no Claude Code messages: none of its ${snapshot.records.length} lines is a user or assistant message with a sessionId (endless fork and backfill read Claude Code sessions only); nothing was written`,
  );
}

function parseObject(line: string): Json | undefined {
  try {
    const value: unknown = JSON.parse(line.charCodeAt(0) === 0xfeff ? line.slice(1) : line);
    return isObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}
