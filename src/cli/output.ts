/** The one place the CLI writes to the terminal. */
import Table from 'cli-table3';
import { lines } from './lines.js';
import { currentTerminal } from './terminal.js';

/** line, json, warn, error and raw: the writers themselves live in lines.ts, which the light command paths load alone. */
export const out = lines;

const BORDERLESS = {
  top: '', 'top-mid': '', 'top-left': '', 'top-right': '',
  bottom: '', 'bottom-mid': '', 'bottom-left': '', 'bottom-right': '',
  left: '', 'left-mid': '', mid: '', 'mid-mid': '', right: '', 'right-mid': '', middle: '  ',
};

/** An aligned table; the last column wraps to the terminal width. */
export function renderTable(head: string[], rows: string[][], width = currentTerminal().columns || 100): string {
  const fixed = head.slice(0, -1).map((title, i) => Math.max(title.length, ...rows.map((row) => (row[i] ?? '').length)) + 2);
  const last = Math.max(20, width - fixed.reduce((a, b) => a + b, 0) - 2 * head.length);
  const color = currentTerminal().isTTY && !currentTerminal().noColor;
  const table = new Table({
    head,
    chars: BORDERLESS,
    style: { head: color ? ['bold'] : [], border: [], 'padding-left': 0, 'padding-right': 0 },
    colWidths: [...fixed, last],
    wordWrap: true,
  });
  table.push(...rows);
  return table.toString();
}
