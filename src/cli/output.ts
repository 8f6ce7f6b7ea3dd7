/** The one place the CLI writes to the terminal. */
import Table from 'cli-table3';
import stringWidth from 'string-width';
import { lines } from './lines.js';
import { currentTerminal } from './terminal.js';
import { terminalSafe } from './terminal-safe.js';

/** line, json, warn, error and raw: the writers themselves live in lines.ts, which the light command paths load alone. */
export const out = lines;

const BORDERLESS = {
  top: '', 'top-mid': '', 'top-left': '', 'top-right': '',
  bottom: '', 'bottom-mid': '', 'bottom-left': '', 'bottom-right': '',
  left: '', 'left-mid': '', mid: '', 'mid-mid': '', right: '', 'right-mid': '', middle: '  ',
};

/** Columns between two cells of an aligned table. */
const GAP = BORDERLESS.middle.length;
/** Below this many columns for a last cell that must wrap, each row is stacked: its other cells on one line, the last under them. */
const MIN_LAST = 20;

/**
 * A table for a person or a script. On a terminal: aligned, the last column wrapped to the width (COLUMNS, or the
 * terminal's own), each row stacked under its other cells when the terminal is too narrow for that. Piped or
 * redirected: a header line and one tab-separated line per row, never wrapped or padded, so `grep` finds a whole
 * row and `cut -f` a column. Every cell is made terminal-safe first: a tab or line break becomes a space, any
 * other control character `?` and a hidden one `\u{...}` (terminal-safe.ts).
 */
export function renderTable(head: string[], rows: string[][]): string {
  const terminal = currentTerminal();
  // Cells hold names and text from outside (a project folder, a session id, a model's answer): terminal-safe, every one.
  const safe = (cell: string): string => terminalSafe(cell.replace(/[\t\r\n]+/g, ' '));
  const [safeHead, safeRows] = [head.map(safe), rows.map((row) => row.map(safe))];
  if (!terminal.isTTY) return tabSeparated(safeHead, safeRows);
  return layoutTable(safeHead, safeRows, terminal.columns || 100, !terminal.noColor);
}

/** Header and rows as tab-separated lines. */
export function tabSeparated(head: string[], rows: string[][]): string {
  return [head, ...rows].map((row) => row.map((cell) => cell.replace(/[\t\r\n]+/g, ' ')).join('\t')).join('\n');
}

/**
 * An aligned table at most `width` columns wide, no line ending in spaces; the last column wraps. Its cells are
 * wrapped here, not by cli-table3, which cuts a word longer than the column short with '…' (a URL, a path).
 */
export function layoutTable(head: string[], rows: string[][], width: number, bold = false): string {
  const fixed = head.slice(0, -1).map((title, i) => Math.max(stringWidth(title), ...rows.map((row) => stringWidth(row[i] ?? ''))));
  const last = width - fixed.reduce((a, b) => a + b, 0) - GAP * fixed.length;
  const widest = Math.max(...[head, ...rows].map((row) => stringWidth(row.at(-1) ?? '')));
  if (last < Math.min(MIN_LAST, widest)) return stackRows([head, ...rows], width);
  const lastIndex = head.length - 1;
  const table = new Table({
    head,
    chars: BORDERLESS,
    style: { head: bold ? ['bold'] : [], border: [], 'padding-left': 0, 'padding-right': 0 },
    colWidths: [...fixed, last],
    wordWrap: true,
  });
  table.push(...rows.map((row) => row.map((cell, i) => (i === lastIndex ? { content: wrapToWidth(cell, last), wordWrap: false } : cell))));
  return table
    .toString()
    .split('\n')
    .map(trimLineEnd)
    .join('\n');
}

/** A line without the spaces that pad its end (kept out of the bold head's closing escape sequence too). */
function trimLineEnd(line: string): string {
  // eslint-disable-next-line no-control-regex -- the head's bold is an escape sequence.
  return line.replace(/ +((?:\u001b\[[0-9;]*m)*)$/, '$1');
}

/** Rows (the head first) for a narrow terminal: the other cells on one line, the last cell under them, indented, wrapped to the width. */
function stackRows(rows: string[][], width: number): string {
  return rows
    .map((row) => {
      const lead = wrapToWidth(row.slice(0, -1).filter((cell) => cell !== '').join('  '), width);
      const body = wrapToWidth(row.at(-1) ?? '', Math.max(1, width - 2))
        .split('\n')
        .map((line) => `  ${line}`);
      return [lead, ...body].map((line) => line.trimEnd()).join('\n');
    })
    .join('\n');
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
