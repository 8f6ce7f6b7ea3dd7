/**
 * Where a command's output goes and what it looks like from: the process's own terminal, or, inside
 * `recall serve`, the client that sent the command (captured per request, so requests never mix).
 */
import { AsyncLocalStorage } from 'node:async_hooks';

export interface Terminal {
  write(stream: 'stdout' | 'stderr', text: string): void;
  columns: number | undefined;
  isTTY: boolean;
  noColor: boolean;
  cwd: string;
}

const processTerminal: Terminal = {
  write: (stream, text) => void (stream === 'stdout' ? process.stdout : process.stderr).write(text),
  get columns() {
    return process.stdout.columns;
  },
  get isTTY() {
    return process.stdout.isTTY === true;
  },
  get noColor() {
    return Boolean(process.env.NO_COLOR);
  },
  get cwd() {
    return process.cwd();
  },
};

const scoped = new AsyncLocalStorage<Terminal>();

export function currentTerminal(): Terminal {
  return scoped.getStore() ?? processTerminal;
}

export function withTerminal<T>(terminal: Terminal, fn: () => Promise<T>): Promise<T> {
  return scoped.run(terminal, fn);
}
