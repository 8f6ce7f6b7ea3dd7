/**
 * Stored text on the page: escaped, and every invisible, bidirectional or control character shown as a
 * marked `\u{...}` instead of acting (an RTL override would turn the rest of the line around). The same
 * table as the terminal's (core/visible-text.ts); line breaks and tabs stay, the page wraps them.
 */
import { html } from 'hono/html';
import { codePointName, splitHidden } from '../core/visible-text.js';
import type { Html } from './ui-layout.js';

const KEEP = new Set(['\n', '\t', '\r']);

export function visible(text: string): Html {
  const pieces = splitHidden(text, KEEP);
  if (pieces.length === 1 && 'text' in pieces[0]!) return html`${pieces[0].text}`;
  return html`${pieces.map((piece) => ('text' in piece ? piece.text : html`<mark class="hidden-char" title="${piece.kind === 'control' ? 'control' : 'invisible or bidirectional'} character">${codePointName(piece.codePoint)}</mark>`))}`;
}

/** Whether the text holds any character `visible` marks. */
export function holdsHidden(text: string): boolean {
  return splitHidden(text, KEEP).some((piece) => !('text' in piece));
}

/** A memory's text as a plain label (aria-label, title): one line, hidden characters spelled out, cut at `max`. */
export function labelText(text: string, max = 80): string {
  const plain = splitHidden(text.replace(/\s+/g, ' ').trim())
    .map((piece) => ('text' in piece ? piece.text : codePointName(piece.codePoint)))
    .join('');
  return plain.length > max ? `${plain.slice(0, max - 1)}…` : plain;
}
