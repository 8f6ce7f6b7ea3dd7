/**
 * Fits a long text into a character budget by keeping its start (30% of the budget: what the
 * session was about) and its end (70%: where it ended up), with a visible marker between them.
 * Pure. `createTruncatingCollector` gives the same result over a stream of chunks while holding
 * only about 2 x maxChars characters (plus the chunk being pushed).
 */

export const DEFAULT_MAX_CHARS = 12_000;
const HEAD_SHARE = 0.3;
/** How far back (or forward) from a cut point to look for a line or word boundary. */
const BOUNDARY_WINDOW_MAX = 200;
const BOUNDARY_WINDOW_SHARE = 0.1;
/** Below this many characters of room besides the marker, a marker is pointless: cut the head. */
const MIN_ROOM_FOR_MARKER = 20;

export interface TruncationResult {
  text: string;
  /** Length of the full text before truncation. */
  totalChars: number;
  /** Characters of the original left out (0 when it fit). */
  omittedChars: number;
}

export interface TruncatingCollector {
  push(chunk: string): void;
  result(): TruncationResult;
}

/** 12345 -> "12,345", independent of the locale. */
export function formatCount(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

export function omissionMarker(omitted: number): string {
  return `\n\n[... ${formatCount(omitted)} characters omitted ...]\n\n`;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/** A cut position at or before `index` that does not split a surrogate pair. */
export function safeCut(text: string, index: number): number {
  return index > 0 && isHighSurrogate(text.charCodeAt(index - 1)) ? index - 1 : index;
}

function isSpace(ch: string | undefined): boolean {
  return ch === ' ' || ch === '\t' || ch === '\n' || ch === '\r';
}

/** Where to end the head: at `budget` or a little before, on a line or word boundary if one is near. */
function headEnd(prefix: string, budget: number): number {
  const window = Math.min(BOUNDARY_WINDOW_MAX, Math.floor(budget * BOUNDARY_WINDOW_SHARE));
  let end = safeCut(prefix, budget);
  if (prefix[budget] !== '\n') {
    const newline = prefix.lastIndexOf('\n', budget - 1);
    if (newline > 0 && newline >= budget - window) {
      end = newline;
    } else {
      for (let i = budget - 1; i >= budget - window && i > 0; i -= 1) {
        if (prefix[i] === ' ' || prefix[i] === '\t') {
          end = i;
          break;
        }
      }
    }
  }
  while (end > 0 && isSpace(prefix[end - 1])) end -= 1;
  return end;
}

/** How many characters to keep from the end: `budget` or a little fewer, starting a line or word. */
function tailLength(suffix: string, budget: number): number {
  const window = Math.min(BOUNDARY_WINDOW_MAX, Math.floor(budget * BOUNDARY_WINDOW_SHARE));
  let start = suffix.length - budget;
  if (suffix[start - 1] !== '\n') {
    const newline = suffix.indexOf('\n', start);
    if (newline !== -1 && newline < start + window) {
      start = newline + 1;
    } else {
      let moved = false;
      for (let i = start; i < start + window && i < suffix.length; i += 1) {
        if (suffix[i] === ' ' || suffix[i] === '\t') {
          start = i + 1;
          moved = true;
          break;
        }
      }
      if (!moved && isLowSurrogate(suffix.charCodeAt(start))) start += 1;
    }
  }
  while (start < suffix.length && (suffix[start] === '\n' || suffix[start] === '\r')) start += 1;
  return suffix.length - start;
}

/**
 * The truncated text of a `total`-character original, given its first and last characters.
 * `prefix` and `suffix` must each hold at least min(total, maxChars + 1) characters.
 */
function assemble(prefix: string, suffix: string, total: number, maxChars: number): TruncationResult {
  if (total <= maxChars) return { text: prefix.slice(0, total), totalChars: total, omittedChars: 0 };
  // The marker can only shrink once the real omitted count is known: reserve room for the longest.
  const room = maxChars - omissionMarker(total).length;
  if (room < MIN_ROOM_FOR_MARKER) {
    const end = safeCut(prefix, maxChars);
    return { text: prefix.slice(0, end), totalChars: total, omittedChars: total - end };
  }
  const headBudget = Math.floor(room * HEAD_SHARE);
  const head = prefix.slice(0, headEnd(prefix, headBudget));
  const tailKept = tailLength(suffix, room - headBudget);
  const tail = suffix.slice(suffix.length - tailKept);
  const omitted = total - head.length - tail.length;
  return { text: `${head}${omissionMarker(omitted)}${tail}`, totalChars: total, omittedChars: omitted };
}

function checkMaxChars(maxChars: number): void {
  if (!Number.isInteger(maxChars) || maxChars < 0) {
    throw new RangeError(`maxChars must be a non-negative integer, got ${maxChars}`);
  }
}

/** `text` itself when it fits in `maxChars`; otherwise head + marker + tail, at most `maxChars` long. */
export function smartTruncate(text: string, maxChars = DEFAULT_MAX_CHARS): string {
  checkMaxChars(maxChars);
  if (text.length <= maxChars) return text;
  return assemble(text, text, text.length, maxChars).text;
}

/** Streams chunks in; `result()` equals `smartTruncate(allChunks.join(''), maxChars)`. */
export function createTruncatingCollector(maxChars = DEFAULT_MAX_CHARS): TruncatingCollector {
  checkMaxChars(maxChars);
  const keep = maxChars + 1;
  let head = '';
  let tailChunks: string[] = [];
  let tailLength = 0;
  let total = 0;

  const compactTail = (): string => {
    const joined = tailChunks.join('');
    const kept = joined.length > keep ? joined.slice(joined.length - keep) : joined;
    tailChunks = [kept];
    tailLength = kept.length;
    return kept;
  };

  return {
    push(chunk) {
      if (chunk.length === 0) return;
      total += chunk.length;
      if (head.length < keep) head += chunk.slice(0, keep - head.length);
      if (chunk.length >= keep) {
        tailChunks = [chunk.slice(chunk.length - keep)];
        tailLength = keep;
        return;
      }
      tailChunks.push(chunk);
      tailLength += chunk.length;
      if (tailLength > 2 * keep) compactTail();
    },
    result() {
      return assemble(head, compactTail(), total, maxChars);
    },
  };
}
