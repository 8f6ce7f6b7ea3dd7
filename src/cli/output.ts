/** The one place the CLI writes to the terminal. */
import Table from 'cli-table3';
import stringWidth from 'string-width';
import { lines } from './lines.js';
import { currentTerminal } from './terminal.js';

/** line, json, warn, error and raw: the writers themselves live in lines.ts, which the light command paths load alone. */
export const out = lines;

const BORDERLESS = {
  top: '', 'top-mid': '', 'top-left': '', 'top-right': '',
  bottom: '', 'bottom-mid': '', 'bottom-left': '', 'bottom-right': '',
  left: '', 'left-mid': '', mid: '', 'mid-mid': '', right: '', 'right-mid': '', middle: '  ',
};

/**
 * An aligned table; the last column wraps to the terminal width. Its cells are wrapped here, not by
 * cli-table3, which cuts a word longer than the column short with '…' (a URL, a path, a namespace).
 */
export function renderTable(head: string[], rows: string[][], width = currentTerminal().columns || 100): string {
  const fixed = head.slice(0, -1).map((title, i) => Math.max(stringWidth(title), ...rows.map((row) => stringWidth(row[i] ?? ''))) + 2);
  const last = Math.max(20, width - fixed.reduce((a, b) => a + b, 0) - 2 * head.length);
  const lastIndex = head.length - 1;
  const color = currentTerminal().isTTY && !currentTerminal().noColor;
  const table = new Table({
    head,
    chars: BORDERLESS,
    style: { head: color ? ['bold'] : [], border: [], 'padding-left': 0, 'padding-right': 0 },
    colWidths: [...fixed, last],
    wordWrap: true,
  });
  table.push(...rows.map((row) => row.map((cell, i) => (i === lastIndex ? { content: wrapToWidth(cell, last), wordWrap: false } : cell))));
  return table.toString();
}

/**
 * A table of memories: aligned and wrapped to the width on a terminal; piped or redirected, a header
 * line and one tab-separated line per memory, never wrapped, so `grep` and `cut -f` see whole memories.
 */
export function renderMemoryTable(head: string[], rows: string[][]): string {
  if (currentTerminal().isTTY) return renderTable(head, rows);
  return [head, ...rows].map((row) => row.map((cell) => cell.replace(/[\t\r\n]+/g, ' ')).join('\t')).join('\n');
}

/** Text broken into lines of at most width display columns: at spaces where it can, inside a longer word where it must, never dropping a character. */
export function wrapToWidth(text: string, width: number): string {
  return text
    .split('\n')
    .flatMap((line) => wrapLine(line, Math.max(1, width)))
    .join('\n');
}

function wrapLine(line: string, width: number): string[] {
  const lines: string[] = [];
  let current = '';
  let used = 0;
  for (const [, space = '', word = ''] of line.matchAll(/(\s*)(\S+)/g)) {
    const gap = current === '' && lines.length > 0 ? '' : space;
    const wordWidth = stringWidth(word);
    if (used + stringWidth(gap) + wordWidth <= width) {
      current += gap + word;
      used += stringWidth(gap) + wordWidth;
      continue;
    }
    if (current !== '') lines.push(current);
    const pieces = wordWidth <= width ? [word] : splitWord(word, width);
    lines.push(...pieces.slice(0, -1));
    current = pieces.at(-1) ?? '';
    used = stringWidth(current);
  }
  lines.push(current);
  return lines;
}

/** A word wider than width cut into pieces that each fit, between code points (a combining mark stays with its letter). */
function splitWord(word: string, width: number): string[] {
  const pieces: string[] = [];
  let piece = '';
  let used = 0;
  for (const char of word) {
    const charWidth = stringWidth(char);
    if (piece !== '' && used + charWidth > width) {
      pieces.push(piece);
      piece = '';
      used = 0;
    }
    piece += char;
    used += charWidth;
  }
  pieces.push(piece);
  return pieces;
}
