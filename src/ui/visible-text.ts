/**
 * Stored text on the page: escaped, and every invisible, bidirectional or control character shown as a
 * marked `\u{...}` instead of acting (an RTL override would turn the rest of the line around). The same
 * table as the terminal's (core/visible-text.ts); line breaks and tabs stay, the page wraps them.
 * Combining marks stacked on one letter beyond MARKS_KEPT (Zalgo text, which paints over the lines
 * around it) are counted in a mark instead of drawn.
 */
import { html } from 'hono/html';
import { codePointName, splitHidden } from '../core/visible-text.js';
import type { Html } from './ui-layout.js';

const KEEP = new Set(['\n', '\t', '\r']);
/** Combining marks drawn on one letter; real scripts stack two or three, more is painting over other lines. */
const MARKS_KEPT = 3;
const STACK = new RegExp(`(?<=\\p{M}{${MARKS_KEPT}})\\p{M}+`, 'gu');
const HAS_STACK = new RegExp(STACK.source, 'u');

/** A plain run cut where marks stack too high: text, and the count of marks left out after it. */
function splitStacks(run: string): Array<string | number> {
  const parts: Array<string | number> = [];
  let at = 0;
  for (const match of run.matchAll(STACK)) {
    parts.push(run.slice(at, match.index), [...match[0]].length);
    at = match.index + match[0].length;
  }
  if (at < run.length) parts.push(run.slice(at));
  return parts;
}

const stackWords = (n: number): string => `+${n} combining mark${n === 1 ? '' : 's'}`;

export function visible(text: string): Html {
  const pieces = splitHidden(text, KEEP);
  if (pieces.length === 1 && 'text' in pieces[0]! && !HAS_STACK.test(pieces[0].text)) return html`${pieces[0].text}`;
  return html`${pieces.map((piece) => ('text' in piece
    ? splitStacks(piece.text).map((part) => (typeof part === 'string' ? part : html`<mark class="hidden-char" title="combining marks stacked on the letter before">${stackWords(part)}</mark>`))
    : html`<mark class="hidden-char" title="${piece.kind === 'control' ? 'control' : 'invisible or bidirectional'} character">${codePointName(piece.codePoint)}</mark>`))}`;
}

/** Whether the text holds any character `visible` marks. */
export function holdsHidden(text: string): boolean {
  return splitHidden(text, KEEP).some((piece) => !('text' in piece)) || HAS_STACK.test(text);
}

/** Text for places that hold plain text only (an option, an attribute): every hidden character spelled out as `\u{202E}`. */
export function spelled(text: string): string {
  return splitHidden(text)
    .map((piece) => ('text' in piece ? splitStacks(piece.text).map((part) => (typeof part === 'string' ? part : `[${stackWords(part)}]`)).join('') : codePointName(piece.codePoint)))
    .join('');
}

/** A memory's text as a plain label (aria-label, title): one line, hidden characters spelled out, cut at `max`. */
export function labelText(text: string, max = 80): string {
  // \s (and trim) hold U+FEFF, which is spelled out like any hidden character, not made a space.
  const plain = spelled(text.replace(/[^\S\uFEFF]+/g, ' ').replace(/^ | $/g, ''));
  return plain.length > max ? `${plain.slice(0, max - 1)}…` : plain;
}

/**
 * The text for the edit box: hidden characters spelled out as `\u{202E}` (line breaks and tabs kept), so
 * the box shows where they are instead of acting; `unspellHidden` turns the spellings back on save, so a
 * text saved unchanged is stored unchanged, and deleting a spelling deletes its character. A text that
 * already held such a spelling as typed (`\u{202E}` written out) keeps it: the box shows it with its
 * backslash doubled, and saving gives back the one backslash, not the character.
 */
export function spellHidden(text: string): string {
  const pieces = splitHidden(text, KEEP);
  if (pieces.every((piece) => 'text' in piece)) return text;
  return pieces.map((piece) => ('text' in piece ? piece.text.replace(TYPED_SPELLING, (slash: string, hex: string) => (hiddenChar(hex) === null ? slash : '\\\\')) : codePointName(piece.codePoint))).join('');
}

export function unspellHidden(text: string): string {
  return text.replace(SPELLING, (spelling: string, doubled: string, hex: string) => {
    const ch = hiddenChar(hex);
    if (ch === null) return spelling;
    return doubled === '' ? ch : spelling.slice(1);
  });
}

/** A spelling in the box: `\u{202E}`, or `\\u{202E}` for one the text held as typed. */
const SPELLING = /\\(\\?)u\{([0-9A-F]{1,6})\}/g;
/** The backslash of a spelling the text holds as typed. */
const TYPED_SPELLING = /\\(?=u\{([0-9A-F]{1,6})\})/g;

/** The character a spelling names, when it is one the box spells out (not a line break, a tab or a plain letter). */
function hiddenChar(hex: string): string | null {
  const codePoint = Number.parseInt(hex, 16);
  if (codePoint > 0x10ffff) return null;
  const ch = String.fromCodePoint(codePoint);
  return !KEEP.has(ch) && splitHidden(ch, KEEP).some((piece) => !('text' in piece)) ? ch : null;
}
