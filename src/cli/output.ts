/** The one place the CLI writes to the terminal. */
import Table from 'cli-table3';

export const out = {
  line(text = ''): void {
    console.log(text);
  },
  json(value: unknown): void {
    console.log(JSON.stringify(value, null, 2));
  },
  error(text: string): void {
    console.error(`recall: ${text}`);
  },
  warn(text: string): void {
    console.error(text);
  },
};

const BORDERLESS = {
  top: '', 'top-mid': '', 'top-left': '', 'top-right': '',
  bottom: '', 'bottom-mid': '', 'bottom-left': '', 'bottom-right': '',
  left: '', 'left-mid': '', mid: '', 'mid-mid': '', right: '', 'right-mid': '', middle: '  ',
};

/** An aligned table; the last column wraps to the terminal width. */
export function renderTable(head: string[], rows: string[][], width = process.stdout.columns || 100): string {
  const fixed = head.slice(0, -1).map((title, i) => Math.max(title.length, ...rows.map((row) => (row[i] ?? '').length)) + 2);
  const last = Math.max(20, width - fixed.reduce((a, b) => a + b, 0) - 2 * head.length);
  const color = process.stdout.isTTY && !process.env.NO_COLOR;
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
