/**
 * Reads a transcript JSONL file line by line into rendered, smart-truncated text. Streams the file
 * (never reads it whole) and keeps only a bounded amount of rendered text in memory.
 * It neither redacts (a later stage does) nor judges whether the text is long enough (the caller does).
 */
import { open } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { RecallError } from '../core/errors.js';
import { parseJsonObjectLine, parseTranscriptRecord } from './parse-transcript-line.js';
import { createTurnRenderer } from './render-transcript.js';
import { DEFAULT_MAX_CHARS, createTruncatingCollector } from './smart-truncate.js';

export interface ReadTranscriptOptions {
  /** Budget for the rendered text (default 12,000 characters). */
  maxChars?: number;
}

export interface TranscriptText {
  /** Rendered conversation, smart-truncated to `maxChars`. */
  text: string;
  /** Turns rendered: user and assistant messages plus tool calls and results. */
  turns: number;
  /** Non-blank lines that were not a JSON object (malformed, cut off, or another value). */
  skippedLines: number;
  /** Length of the rendered text before truncation. */
  totalChars: number;
}

/** Bytes inspected for NUL characters before treating the file as a transcript. */
const SNIFF_BYTES = 8192;

function errnoCode(err: unknown): string | undefined {
  if (typeof err === 'object' && err !== null && 'code' in err) {
    const code = (err as { code: unknown }).code;
    return typeof code === 'string' ? code : undefined;
  }
  return undefined;
}

/** The coded error for a failure to read `path`: ENOENT is missing (may appear later), the rest unreadable. */
export function transcriptReadError(err: unknown, path: string): RecallError {
  if (err instanceof RecallError) return err;
  const code = errnoCode(err);
  if (code === 'ENOENT') return new RecallError('TRANSCRIPT_MISSING', `transcript not found: ${path}`, { cause: err });
  const detail = code === undefined ? 'read failed' : code;
  return new RecallError('TRANSCRIPT_UNREADABLE', `cannot read transcript ${path} (${detail})`, { cause: err });
}

async function rejectBinary(handle: FileHandle, path: string): Promise<void> {
  const buffer = Buffer.alloc(SNIFF_BYTES);
  const { bytesRead } = await handle.read(buffer, 0, SNIFF_BYTES, 0);
  if (buffer.subarray(0, bytesRead).includes(0)) {
    throw new RecallError('TRANSCRIPT_UNREADABLE', `transcript looks binary (NUL bytes): ${path}`);
  }
}

export async function readTranscript(path: string, options: ReadTranscriptOptions = {}): Promise<TranscriptText> {
  const collector = createTruncatingCollector(options.maxChars ?? DEFAULT_MAX_CHARS);
  let handle: FileHandle | undefined;
  try {
    handle = await open(path, 'r');
    // Reading (not opening) is what fails on a directory, so this also surfaces EISDIR early.
    await rejectBinary(handle, path);
    const stream = handle.createReadStream({ encoding: 'utf8', start: 0, autoClose: true });
    handle = undefined; // the stream owns and closes it from here
    const lines = createInterface({ input: stream, crlfDelay: Infinity });
    const renderer = createTurnRenderer();
    let turns = 0;
    let skippedLines = 0;
    try {
      for await (const line of lines) {
        // parseJsonObjectLine strips a BOM and a trailing CR as part of trimming.
        const record = parseJsonObjectLine(line);
        if (record === undefined) {
          if (line.replace(/^\uFEFF/, '').trim() !== '') skippedLines += 1;
          continue;
        }
        for (const turn of parseTranscriptRecord(record)) {
          turns += 1;
          collector.push(renderer.render(turn));
        }
      }
    } finally {
      lines.close();
      stream.destroy();
    }
    const { text, totalChars } = collector.result();
    return { text, turns, skippedLines, totalChars };
  } catch (err) {
    throw transcriptReadError(err, path);
  } finally {
    await handle?.close().catch(() => undefined);
  }
}
