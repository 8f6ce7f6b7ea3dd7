/**
 * The CLI's terminal writers (stdout for data, stderr for diagnostics), without the table renderer,
 * so light command paths such as `endless fork` can load them alone. `out` in output.ts is this object.
 */
import { currentTerminal } from './terminal.js';
import { terminalSafe } from './terminal-safe.js';

export const lines = {
  line(text = ''): void {
    currentTerminal().write('stdout', `${text}\n`);
  },
  json(value: unknown): void {
    currentTerminal().write('stdout', `${JSON.stringify(value, null, 2)}\n`);
  },
  /** A JSON array with one element per line: compact, still one JSON value, and a line per item for grep. */
  jsonRows(values: readonly unknown[]): void {
    const body = values.map((value) => JSON.stringify(value)).join(',\n');
    currentTerminal().write('stdout', values.length === 0 ? '[]\n' : `[\n${body}\n]\n`);
  },
  /** An error names paths and values from outside (a file called with an escape sequence): each of its lines made terminal-safe. */
  error(text: string): void {
    currentTerminal().write('stderr', `recall: ${text.split('\n').map(terminalSafe).join('\n')}\n`);
  },
  warn(text: string): void {
    currentTerminal().write('stderr', `${text}\n`);
  },
  /** Text that already ends its own lines (commander's help and usage errors). */
  raw(stream: 'stdout' | 'stderr', text: string): void {
    currentTerminal().write(stream, text);
  },
};
