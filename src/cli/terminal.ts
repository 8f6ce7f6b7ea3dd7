/**
 * Where a command's output goes and what it looks like from: the process's own terminal, or, inside
 * `recall serve`, the client that sent the command (captured per request, so requests never mix).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { terminalColumns } from '../core/terminal-columns.js';

export interface Terminal {
  write(stream: 'stdout' | 'stderr', text: string): void;
  columns: number | undefined;
  isTTY: boolean;
  noColor: boolean;
  cwd: string;
  /** The environment the command runs in; absent: the process's own. */
  env?: NodeJS.ProcessEnv;
  /** A command's non-zero exit code without an error (see setExitCode); unset means 0. */
  exitCode?: number;
}

const processTerminal: Terminal = {
  write: (stream, text) => void (stream === 'stdout' ? process.stdout : process.stderr).write(text),
  get columns() {
    return terminalColumns(process.env.COLUMNS, process.stdout.columns);
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
  get env() {
    return process.env;
  },
};

const scoped = new AsyncLocalStorage<Terminal>();

export function currentTerminal(): Terminal {
  return scoped.getStore() ?? processTerminal;
}

/**
 * The environment of the running command: the one place the command-line program reads process.env,
 * so commands take their settings from here and pass values down.
 */
export function commandEnv(): NodeJS.ProcessEnv {
  return currentTerminal().env ?? process.env;
}

export function withTerminal<T>(terminal: Terminal, fn: () => Promise<T>): Promise<T> {
  return scoped.run(terminal, fn);
}

/**
 * How a command that prints its own failure exits non-zero: on the request's terminal inside
 * `recall serve` (so one request's code never leaks into the next), on the process otherwise.
 */
export function setExitCode(code: number): void {
  const terminal = scoped.getStore();
  if (terminal === undefined) process.exitCode = code;
  else terminal.exitCode = code;
}

/** The code set by setExitCode for the current terminal (0 when none was). */
export function currentExitCode(): number {
  const terminal = scoped.getStore();
  const code = terminal === undefined ? process.exitCode : terminal.exitCode;
  return typeof code === 'number' ? code : 0;
}
