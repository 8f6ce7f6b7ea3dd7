/**
 * Cuts one block of already redacted text to a character budget, keeping its head and its tail with a
 * visible marker between them. Never splits a surrogate pair or a `[REDACTED:...]` marker, and prefers
 * to cut at a line or word boundary. Pure.
 */

/**
 * `text` as a string of its own. V8 keeps a whole string alive while any slice of it lives (the cut of a 9 kB tool
 * output holds all 9 kB): what the reader keeps of each event is copied out of the line it was read from, so the
 * line goes with the next young-generation collection instead of being copied by each one until the session is
 * folded. (Joining forces one flat copy; the slice of it holds only that copy.)
 */
export function detach(text: string): string {
  return text.length < 2 ? text : `\u0000${text}`.slice(1);
}

/** 12345 -> "12,345", independent of the locale. */
export function formatCount(n: number): string {
  const digits = String(n);
  if (!Number.isInteger(n) || n < 0 || n >= 1e21) return digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  // Plain digits: a comma before each group of three from the right, without an expression.
  let out = digits.slice(0, digits.length % 3 || 3);
  for (let i = out.length; i < digits.length; i += 3) out += `,${digits.slice(i, i + 3)}`;
  return out;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/** A cut position at or before `index` that does not split a surrogate pair. */
export function safeCut(text: string, index: number): number {
  return index > 0 && isHighSurrogate(text.charCodeAt(index - 1)) ? index - 1 : index;
}

const MARKER_OPEN = '[REDACTED:';
/** The longest redaction marker a cut may need to step around. */
const MARKER_REACH = 64;

/** `index` moved out of any `[REDACTED:...]` marker it falls inside: to its start, or past its end. */
function outsideMarker(text: string, index: number, toward: 'start' | 'end'): number {
  const open = text.lastIndexOf(MARKER_OPEN, index - 1);
  if (open === -1 || index - open > MARKER_REACH) return index;
  const close = text.indexOf(']', open);
  if (close === -1 || close < index) return index;
  return toward === 'start' ? open : close + 1;
}

/** Where a head of at most `budget` characters should end: a line end or word end when one is near. */
export function headEnd(text: string, budget: number): number {
  if (budget >= text.length) return text.length;
  let end = outsideMarker(text, safeCut(text, budget), 'start');
  const window = Math.min(120, Math.floor(budget / 4));
  const newline = text.lastIndexOf('\n', end);
  const space = Math.max(text.lastIndexOf(' ', end), text.lastIndexOf('\t', end));
  if (newline > 0 && newline >= end - window) end = newline;
  else if (space > 0 && space >= end - window) end = space;
  return Math.max(0, end);
}

/** Where a tail of at most `budget` characters should start. */
function tailStart(text: string, budget: number): number {
  if (budget >= text.length) return 0;
  let start = outsideMarker(text, text.length - budget, 'end');
  if (start > 0 && start < text.length && isHighSurrogate(text.charCodeAt(start - 1))) start += 1;
  const window = Math.min(120, Math.floor(budget / 4));
  const newline = text.indexOf('\n', start);
  const space = text.indexOf(' ', start);
  if (newline !== -1 && newline < start + window) start = newline + 1;
  else if (space !== -1 && space < start + window) start = space + 1;
  return Math.min(text.length, start);
}

export function omittedMarker(omitted: number): string {
  return ` […${formatCount(omitted)} chars…] `;
}

/**
 * `text` itself when it fits in `max`; otherwise its head (a `headShare` of the room) and its tail around a
 * marker saying how much was left out, at most `max` characters long. With `headShare` 1, only the head.
 */
export function cutText(text: string, max: number, headShare = 0.7): string {
  if (text.length <= max) return text;
  if (max <= 0) return '';
  const marker = omittedMarker(text.length);
  const room = max - marker.length;
  if (room < 24 || headShare >= 1) {
    const end = headEnd(text, Math.max(0, max - 1));
    return `${text.slice(0, end).trimEnd()}…`;
  }
  const headBudget = Math.floor(room * headShare);
  const head = text.slice(0, headEnd(text, headBudget)).trimEnd();
  const tail = text.slice(tailStart(text, room - headBudget)).trimStart();
  return `${head}${omittedMarker(text.length - head.length - tail.length)}${tail}`;
}

/**
 * `cutText` of a text too long to hold whole, given only its two ends: `head`, which starts it, and `tail`,
 * which ends it, each longer than the cut keeps of it, and `total`, its whole length.
 */
export function cutEnds(head: string, tail: string, total: number, max: number, headShare = 0.7): string {
  const marker = omittedMarker(total);
  const room = max - marker.length;
  if (room < 24 || headShare >= 1) return `${head.slice(0, headEnd(head, Math.max(0, max - 1))).trimEnd()}…`;
  const headBudget = Math.floor(room * headShare);
  const kept = head.slice(0, headEnd(head, headBudget)).trimEnd();
  const end = tail.slice(tailStart(tail, room - headBudget)).trimStart();
  return `${kept}${omittedMarker(Math.max(0, total - kept.length - end.length))}${end}`;
}
