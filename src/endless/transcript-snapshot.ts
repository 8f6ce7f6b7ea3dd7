/**
 * A transcript as it is at one moment: the bytes up to the size seen when the file was opened, so a
 * session that keeps appending cannot tear a line in half under us. A last line without its newline
 * is dropped when it does not parse (it is still being written); any other line that is not a JSON
 * object makes the whole file refused, with its line number.
 */
import { open } from 'node:fs/promises';
import { RecallError } from '../core/errors.js';
import { transcriptReadError } from '../transcript/read-transcript.js';

type Json = Record<string, unknown>;

export interface TranscriptSnapshot {
  path: string;
  /** Non-blank lines, without their newline. */
  lines: string[];
  records: Json[];
  size: number;
  mtimeMs: number;
  droppedPartialTail: boolean;
}

export async function readTranscriptSnapshot(path: string): Promise<TranscriptSnapshot> {
  let buffer: Buffer;
  let mtimeMs: number;
  try {
    const handle = await open(path, 'r');
    try {
      const stat = await handle.stat();
      if (!stat.isFile()) throw new RecallError('TRANSCRIPT_UNREADABLE', `not a regular file: ${path}`);
      mtimeMs = stat.mtimeMs;
      buffer = Buffer.alloc(stat.size);
      let offset = 0;
      while (offset < stat.size) {
        const { bytesRead } = await handle.read(buffer, offset, stat.size - offset, offset);
        if (bytesRead === 0) break;
        offset += bytesRead;
      }
      buffer = buffer.subarray(0, offset);
    } finally {
      await handle.close();
    }
  } catch (err) {
    throw transcriptReadError(err, path);
  }
  if (buffer.includes(0)) throw new RecallError('TRANSCRIPT_UNREADABLE', `transcript looks binary (NUL bytes): ${path}`);
  return parseSnapshot(path, buffer.toString('utf8'), buffer.length, mtimeMs);
}

export function parseSnapshot(path: string, text: string, size: number, mtimeMs: number): TranscriptSnapshot {
  const raw = text.split('\n');
  const complete = text.endsWith('\n');
  const tail = complete ? undefined : raw.pop();
  if (complete) raw.pop();
  const lines: string[] = [];
  const records: Json[] = [];
  raw.forEach((line, i) => {
    if (line.trim() === '') return;
    const record = parseObject(line);
    if (record === undefined) throw new RecallError('TRANSCRIPT_UNREADABLE', `line ${i + 1} of ${path} is not a JSON object; nothing was written`);
    lines.push(line);
    records.push(record);
  });
  let droppedPartialTail = false;
  if (tail !== undefined && tail.trim() !== '') {
    const record = parseObject(tail);
    if (record === undefined) droppedPartialTail = true;
    else {
      lines.push(tail);
      records.push(record);
    }
  }
  if (records.length === 0) throw new RecallError('TRANSCRIPT_UNREADABLE', `no transcript lines in ${path}`);
  return { path, lines, records, size, mtimeMs, droppedPartialTail };
}

function parseObject(line: string): Json | undefined {
  try {
    const value: unknown = JSON.parse(line.replace(/^\uFEFF/, ''));
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : undefined;
  } catch {
    return undefined;
  }
}
