/**
 * Reads a transcript JSONL file into the text the extraction model sees: line by line into events (each
 * cleaned, redacted and cut as it is read), folded into entries, rendered within the budget. Reads the file in
 * chunks (never whole) and keeps a bounded number of events in memory. It does not judge whether the text is
 * long enough (the caller does).
 */
import { open, stat } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { RecallError } from '../core/errors.js';
import { sourceWords, type SourceWords } from './attribute-source.js';
import { cutText } from './cut-text.js';
import { LIMITS } from './transcript-limits.js';
import { foldSession } from './fold-session.js';
import { collapseRewrites } from './gemini-session-record.js';
import { parseJsonObjectLine, parseTranscriptRecord } from './parse-transcript-line.js';
import { forEachLine } from './read-lines.js';
import { renderSession } from './render-session.js';
import type { RenderStats } from './render-session.js';
import type { SessionEntry, SessionEvent } from './session-events.js';
import type { ToolOutput } from './tool-output.js';

export const DEFAULT_MAX_CHARS = 12_000;

export interface ReadTranscriptOptions {
  /** Budget for the rendered text (default 12,000 characters). */
  maxChars?: number;
  /** Longest line accepted, in bytes (default 16 MiB); a longer one fails the read. */
  maxLineBytes?: number;
  /** Read from this byte on (default 0): a capture of the part of a session after an earlier capture. */
  startByte?: number;
  /** Read up to this byte (default: the end of the file). */
  endByte?: number | null;
}

export interface TranscriptText {
  /** The session as the model sees it, at most `maxChars` long. */
  text: string;
  /** Events read: typed messages, assistant texts, tool calls and results, summaries, subagent lines. */
  turns: number;
  /** Non-blank lines that were not a JSON object (malformed, cut off, or another value). */
  skippedLines: number;
  /** Length of the rendered text with every entry shown in full. */
  totalChars: number;
  stats: RenderStats;
  /** The user's first typed message, on one line and cut short, or null when they typed nothing. */
  firstRequest: string | null;
  /** The working directory the session recorded (Claude Code's `cwd` field), or null. */
  cwd: string | null;
  /**
   * The words of each kind of text in the session (typed, assistant, tool output, pasted, summary), to tell where a
   * memory came from: gathered on the first call (only once the model has named memories), then kept.
   */
  sources: () => SourceWords;
}

/** Bytes inspected for NUL characters before treating the file as a transcript. */
const SNIFF_BYTES = 8192;
/** Past this many events, the oldest of the assistant's and the tools' are let go (users' words never are). */
const MAX_EVENTS = 40_000;
/**
 * Assistant texts are read up to `LIMITS.conclusion` so the session's conclusion can be shown whole; only the
 * newest few keep that length, older ones are cut to what any other assistant text can show.
 */
const LONG_ASSISTANT_TEXTS = 12;
const FIRST_REQUEST_CHARS = 160;
/**
 * Characters of tool output held for snippets not yet made (tool-output.ts), as much as one line may hold (the
 * default line limit): past it, the oldest snippets are made at once and what they were made from let go.
 */
const HELD_OUTPUT_CHARS = 16 * 1024 * 1024;
export const DEFAULT_MAX_LINE_BYTES = 16 * 1024 * 1024;

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

/** Lets go of the older half of the assistant's and the tools' events; the users' words and summaries stay. */
function thin(events: SessionEvent[]): SessionEvent[] {
  const droppable = events.filter((e) => e.kind !== 'user' && e.kind !== 'compaction' && e.kind !== 'interrupt').length;
  let drop = Math.floor(droppable / 2);
  return events.filter((e) => {
    if (drop === 0 || e.kind === 'user' || e.kind === 'compaction' || e.kind === 'interrupt') return true;
    drop -= 1;
    return false;
  });
}

/** The first thing the user typed, on one line, cut short. */
export function firstRequestOf(entries: readonly SessionEntry[]): string | null {
  const first = entries.find((e) => e.kind === 'user');
  if (first === undefined) return null;
  return cutText(first.text.replace(/\s+/g, ' ').trim(), FIRST_REQUEST_CHARS, 1);
}

/**
 * Refuses anything but a regular file (a symlink to one is fine) before it is opened: opening a FIFO
 * blocks until a writer comes, and a socket or device never ends, so either would hold the worker.
 */
async function assertRegularFile(path: string): Promise<void> {
  const info = await stat(path);
  if (info.isFile()) return;
  const kind = info.isDirectory() ? 'a directory' : info.isFIFO() ? 'a FIFO' : info.isSocket() ? 'a socket' : info.isCharacterDevice() || info.isBlockDevice() ? 'a device' : 'not a regular file';
  throw new RecallError('TRANSCRIPT_UNREADABLE', `transcript is ${kind}, not a regular file: ${path}`);
}

/** The error for a line past the limit: permanent, since the file will not get shorter lines. */
function lineTooLong(path: string, maxLineBytes: number): (lineNumber: number) => RecallError {
  return (lineNumber) =>
    new RecallError('TRANSCRIPT_UNREADABLE', `transcript line ${lineNumber} is longer than ${maxLineBytes} bytes (transcript.maxLineBytes): ${path}`);
}

/** The working directory a record names: Claude Code's and droid's `cwd`, Codex's `session_meta` payload's. */
function recordCwd(record: Record<string, unknown>): string | null {
  const payload = record['type'] === 'session_meta' ? record['payload'] : undefined;
  const cwd = typeof payload === 'object' && payload !== null && !Array.isArray(payload) ? (payload as Record<string, unknown>)['cwd'] : record['cwd'];
  return typeof cwd === 'string' && cwd !== '' ? cwd : null;
}

/** `sourceWords(entries)`, gathered when first asked for. */
export function lazySourceWords(entries: readonly SessionEntry[]): () => SourceWords {
  let words: SourceWords | undefined;
  return () => (words ??= sourceWords(entries));
}

export async function readTranscript(path: string, options: ReadTranscriptOptions = {}): Promise<TranscriptText> {
  let handle: FileHandle | undefined;
  try {
    await assertRegularFile(path);
    handle = await open(path, 'r');
    // Reading (not opening) is what fails on a directory, so this also surfaces EISDIR early.
    await rejectBinary(handle, path);
    const start = Math.max(0, options.startByte ?? 0);
    const end = options.endByte === undefined || options.endByte === null ? undefined : Math.max(start, options.endByte);
    if (end !== undefined && end <= start) throw new RecallError('TRANSCRIPT_UNREADABLE', `empty span ${start}-${start} of transcript ${path}`);
    const maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
    let events: SessionEvent[] = [];
    let turns = 0;
    let skippedLines = 0;
    let cwd: string | null = null;
    const long: Array<SessionEvent & { kind: 'assistant' }> = [];
    const held: ToolOutput[] = [];
    let heldChars = 0;
    const rewrites = collapseRewrites();
    const take = (kept: Record<string, unknown>): void => {
      for (const event of parseTranscriptRecord(kept)) {
        turns += 1;
        events.push(event);
        // Only the newest long assistant texts are held whole: the conclusion is among them.
        if (event.kind === 'assistant' && event.text.length > LIMITS.assistantFinal) {
          long.push(event);
          const old = long.length > LONG_ASSISTANT_TEXTS ? long.shift() : undefined;
          if (old !== undefined) old.text = cutText(old.text, LIMITS.assistantFinal);
        }
        if (event.kind === 'tool-result' && event.output.held > 0) {
          held.push(event.output);
          heldChars += event.output.held;
          // Memory stays bounded: the oldest snippets are made now once too much is held for them.
          while (heldChars > HELD_OUTPUT_CHARS) {
            const oldest = held.shift();
            if (oldest === undefined) break;
            heldChars -= oldest.held;
            oldest.settle();
          }
        }
      }
    };
    const span = { start, ...(end === undefined ? {} : { end }), maxLineBytes, tooLong: lineTooLong(path, maxLineBytes) };
    await forEachLine(handle, span, (line) => {
      // parseJsonObjectLine strips a BOM and a trailing CR as part of trimming.
      const record = parseJsonObjectLine(line);
      if (record === undefined) {
        if (line.replace(/^\uFEFF/, '').trim() !== '') skippedLines += 1;
        return;
      }
      if (cwd === null) cwd = recordCwd(record);
      for (const kept of rewrites.push(record)) take(kept);
      if (events.length > MAX_EVENTS) events = thin(events);
    });
    for (const kept of rewrites.flush()) take(kept);
    const entries = foldSession(events);
    const { text, stats } = renderSession(entries, options.maxChars ?? DEFAULT_MAX_CHARS);
    return {
      text,
      turns,
      skippedLines,
      // Read when asked for (it measures every snippet; see render-session.ts).
      get totalChars(): number {
        return stats.fullChars;
      },
      stats,
      firstRequest: firstRequestOf(entries),
      cwd,
      sources: lazySourceWords(entries),
    };
  } catch (err) {
    throw transcriptReadError(err, path);
  } finally {
    await handle?.close().catch(() => undefined);
  }
}
