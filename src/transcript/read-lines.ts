/**
 * Reads a span of a file line by line, in chunks of bytes, never holding more than one chunk and one line:
 * lines end at `\n`, `\r\n` or a lone `\r` (as node:readline splits them), each line is decoded from UTF-8 on its
 * own (a newline byte never falls inside a character), and a line longer than `maxLineBytes` (newline excluded,
 * counted between `\n`s) fails the read with the error `tooLong` makes, before it is held whole. Cheaper than
 * readline over a decoding stream: no stream machinery, no string per chunk, no promise per line.
 */
import type { FileHandle } from 'node:fs/promises';

const NEWLINE = 0x0a;
/** Bytes read at a time. */
const CHUNK_BYTES = 1024 * 1024;

export interface LineSpan {
  /** First byte to read. */
  start: number;
  /** Byte to stop before; undefined reads to the end of the file. */
  end?: number;
  maxLineBytes: number;
  /** The error for a line past the limit, by its 1-based number (lines counted between `\n`s). */
  tooLong: (lineNumber: number) => Error;
  /** Bytes read at a time (default 1 MiB). */
  chunkBytes?: number;
}

/** Calls `onLine` with each line of the span, in order (empty lines too). */
export async function forEachLine(handle: FileHandle, span: LineSpan, onLine: (line: string) => void): Promise<void> {
  const chunkBytes = span.chunkBytes ?? CHUNK_BYTES;
  const buffer = Buffer.allocUnsafe(chunkBytes);
  /** The start of a line not yet ended, carried over from earlier chunks. */
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let lineNumber = 1;
  let position = span.start;
  for (;;) {
    const want = span.end === undefined ? chunkBytes : Math.min(chunkBytes, span.end - position);
    if (want <= 0) break;
    const { bytesRead } = await handle.read(buffer, 0, want, position);
    if (bytesRead === 0) break;
    position += bytesRead;
    const chunk = buffer.subarray(0, bytesRead);
    let from = 0;
    for (let nl = chunk.indexOf(NEWLINE); nl !== -1; nl = chunk.indexOf(NEWLINE, from)) {
      if (pendingBytes + nl - from > span.maxLineBytes) throw span.tooLong(lineNumber);
      if (pending.length === 0) emit(chunk.toString('utf8', from, nl), true, onLine);
      else {
        pending.push(chunk.subarray(from, nl));
        emit(Buffer.concat(pending).toString('utf8'), true, onLine);
        pending = [];
        pendingBytes = 0;
      }
      lineNumber += 1;
      from = nl + 1;
    }
    if (from < bytesRead) {
      pendingBytes += bytesRead - from;
      if (pendingBytes > span.maxLineBytes) throw span.tooLong(lineNumber);
      // A copy: the buffer is read into again.
      pending.push(Buffer.from(chunk.subarray(from)));
    }
  }
  if (pending.length > 0) emit(Buffer.concat(pending).toString('utf8'), false, onLine);
}

/**
 * One `\n`-ended piece as its lines: a lone `\r` inside it ends a line too, and a `\r` just before the `\n` is part
 * of that line break. `ended`: the piece was ended by a `\n` (not the end of the span).
 */
function emit(piece: string, ended: boolean, onLine: (line: string) => void): void {
  if (!piece.includes('\r')) {
    if (ended || piece !== '') onLine(piece);
    return;
  }
  const parts = piece.split('\r');
  // A trailing `\r` ends the last line (with the `\n` after it, or at the end of the span): nothing follows it.
  const count = parts[parts.length - 1] === '' ? parts.length - 1 : parts.length;
  for (let i = 0; i < count; i += 1) onLine(parts[i] as string);
}
