/**
 * Where in a text a secret can be: the parts of it worth running the redaction rules on. One pass of one
 * automaton over the text finds every trigger (a secret-ish word, a token prefix, a URL with a user, an
 * encoded separator; see trigger-words.ts and trigger-scan.ts), and one skipping scan finds long runs of token
 * characters (what a token known only by its shape, or an encoded one, is made of). Each hit becomes a
 * window of whole lines around it: its own line, the lines either side, and the more indented lines under
 * it (a YAML value or block) or the rows under a CSV header. Windows that touch are merged. Text outside
 * every window holds no trigger, so no rule can match there, and is never searched again.
 */
import { KNOWN_PREFIX } from './trigger-words.js';
import { findTriggers } from './trigger-scan.js';

/** A run of this many token characters that reads as random is a hit whatever surrounds it. */
export const LONG_RUN = 20;
/** A line longer than this is cut around the hit (minified JSON, base64 blobs). */
const REACH = 2048;
/** How far a window follows more indented lines or CSV rows under its hit. */
const MAX_BLOCK_LINES = 400;
const MAX_BLOCK_CHARS = 64 * 1024;

/** `[A-Za-z0-9+/=_.-]`: what tokens (JWTs and others with dots too), base64 and hex are made of; indexed by any UTF-16 code unit. */
const RUN_CHAR = new Uint8Array(65536);
for (const c of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=_.-') RUN_CHAR[c.charCodeAt(0)] = 1;

/**
 * Runs of at least LONG_RUN token characters that read as random or hold a known token prefix, as
 * `[start, end]` pairs. Skips: a run
 * that long must cover every LONG_RUN-th position, so only those are looked at until one is a token
 * character.
 */
export function findLongRuns(text: string): number[] {
  const runs: number[] = [];
  const n = text.length;
  let i = LONG_RUN - 1;
  let floor = 0;
  while (i < n) {
    if (RUN_CHAR[text.charCodeAt(i)] !== 1) {
      i += LONG_RUN;
      continue;
    }
    let start = i;
    while (start > floor && RUN_CHAR[text.charCodeAt(start - 1)] === 1) start -= 1;
    let end = i + 1;
    while (end < n && RUN_CHAR[text.charCodeAt(end)] === 1) end += 1;
    if (end - start >= LONG_RUN && (readsAsRandom(text, start, end) || KNOWN_PREFIX.test(text.slice(start, end).toLowerCase()))) runs.push(start, end);
    floor = end;
    i = end + LONG_RUN;
  }
  return runs;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * A run that reads as a token rather than a name, a path or a digest: digits with upper-case letters
 * (`AKIA...`, base62 and base64), letters whose case flips often (a random token without a digit), or
 * 32 characters or more with a digit (hex tokens), but not a UUID or a SHA-1/SHA-256 hex digest.
 */
function readsAsRandom(text: string, start: number, end: number): boolean {
  let upper = 0;
  let lower = 0;
  let digits = 0;
  let flips = 0;
  let hex = true;
  let wasLower = false;
  for (let k = start; k < end; k += 1) {
    const code = text.charCodeAt(k);
    if (code >= 65 && code <= 90) {
      upper += 1;
      if (wasLower) flips += 1;
      wasLower = false;
      hex = false;
    } else if (code >= 97 && code <= 122) {
      lower += 1;
      wasLower = true;
      if (code > 102) hex = false;
    } else if (code >= 48 && code <= 57) digits += 1;
    else if (code !== 45) hex = false;
  }
  if (digits > 0 && upper > 0) return true;
  if (upper > 0 && lower > 0 && flips >= 8) return true;
  const length = end - start;
  if (digits === 0 || length < 32 || lower + digits < length / 2) return false;
  if (hex && (length === 40 || length === 64 || (length === 36 && UUID.test(text.slice(start, end))))) return false;
  return true;
}

/** A cut inside a long line: moved to just after a nearby space or delimiter, so no token is split. */
function softCut(text: string, at: number, step: 1 | -1): number {
  for (let k = 0, i = at; k < 200 && i > 0 && i < text.length; k += 1, i += step) {
    if (' \t,;{}[]()<>"\''.includes(text[i] ?? '')) return step === 1 ? i : i + 1;
  }
  return at;
}

function indentOf(text: string, start: number): number {
  let i = start;
  while (text[i] === ' ' || text[i] === '\t') i += 1;
  return i - start;
}

function commasIn(text: string, start: number, end: number): number {
  let n = 0;
  for (let i = start; i < end; i += 1) if (text.charCodeAt(i) === 44) n += 1;
  return n;
}

function lineEnd(text: string, at: number): number {
  const end = text.indexOf('\n', at);
  return end < 0 ? text.length : end;
}

/**
 * The end of the block under the line `[start, end)`, scanned from `from` (a line end at or after `end`):
 * more indented lines (or one blank line), or CSV rows with as many commas.
 */
function blockEnd(text: string, start: number, end: number, from: number): number {
  const indent = indentOf(text, start);
  const commas = end - start > REACH ? 0 : commasIn(text, start, end);
  let last = from;
  for (let lines = 0; lines < MAX_BLOCK_LINES && last < text.length && last - end < MAX_BLOCK_CHARS; lines += 1) {
    const next = last + 1;
    const nextEnd = lineEnd(text, next);
    if (nextEnd - next > REACH) break;
    const blank = text.slice(next, nextEnd).trim() === '';
    const deeper = !blank && indentOf(text, next) > indent;
    const row = commas > 0 && commasIn(text, next, nextEnd) === commas;
    if (!(deeper || row || (blank && lines === 0))) break;
    last = nextEnd;
  }
  return last;
}

/** Where each hit's line starts and ends, found once per line as the hits come in order. */
class Lines {
  start = 0;
  end = -1;
  /** Start of the line before this one, or this one's start when that line is long. */
  before = 0;
  constructor(private readonly text: string) {}

  /** Moves to the line holding `at` (never backwards). */
  moveTo(at: number): void {
    if (at <= this.end) return;
    const text = this.text;
    this.start = at === 0 ? 0 : text.lastIndexOf('\n', at - 1) + 1;
    this.end = lineEnd(text, at);
    const before = this.start === 0 ? 0 : text.lastIndexOf('\n', this.start - 2) + 1;
    this.before = this.start - before > REACH ? this.start : before;
  }
}

/**
 * The windows of `text` worth redacting, as `[start, end]` pairs in order, none touching another; sets
 * `markers.blocks` when a trigger marks a block redacted over the whole text.
 */
export function findWindows(text: string, markers: { blocks: boolean } = { blocks: false }): number[] {
  const triggers = findTriggers(text, markers);
  const runs = findLongRuns(text);
  const windows: number[] = [];
  const lines = new Lines(text);
  let t = 0;
  let r = 0;
  /** The window being grown: `[open, close)`, and whether its ends still need a soft cut. */
  let open = -1;
  let close = -1;
  while (t < triggers.length || r < runs.length) {
    const takeTrigger = r >= runs.length || (t < triggers.length && (triggers[t] as number) <= (runs[r] as number));
    const from = (takeTrigger ? triggers[t] : runs[r]) as number;
    const to = (takeTrigger ? triggers[t + 1] : runs[r + 1]) as number;
    if (takeTrigger) t += 2;
    else r += 2;
    lines.moveTo(from);
    const longLine = lines.end - lines.start > 2 * REACH;
    let start = longLine ? Math.max(lines.start, from - REACH) : lines.before;
    let end: number;
    if (longLine) end = Math.min(lines.end, to + REACH);
    else if (close >= lines.end) end = close; // the line is covered already; its block was looked at from its first hit
    else end = lineEnd(text, Math.min(blockEnd(text, lines.start, lines.end, lines.end), text.length - 1) + 1);
    if (open >= 0 && start <= close + 1) {
      close = Math.max(close, end);
      continue;
    }
    if (open >= 0) windows.push(open, close);
    if (longLine && start > lines.start) start = softCut(text, start, 1);
    open = start;
    close = end;
  }
  if (open >= 0) windows.push(open, close);
  // Cut ends inside long lines at a delimiter.
  for (let w = 1; w < windows.length; w += 2) {
    const end = windows[w] as number;
    if (end < text.length && text[end] !== '\n') windows[w] = Math.max(windows[w - 1] as number, softCut(text, end, -1));
  }
  return windows;
}
