/** `recall search`/`list` ask a running `recall serve` first; null means "run it here instead". */
import { fstatSync, writeSync } from 'node:fs';
import { resolveHome } from '../core/state-paths.js';
import { requestDaemon, serveLink } from './serve-client.js';

export interface ServedRun {
  exitCode: number;
  /** The answer is wholly written (synchronously): the process may exit at once. */
  flushed: boolean;
}

export async function runViaDaemon(args: string[]): Promise<ServedRun | null> {
  const socketPath = serveLink(resolveHome(process.env));
  if (socketPath === null) return null;
  // process.stdout is only touched when it may be a terminal (a pipe or a file has no columns). Writing
  // the answer with writeSync instead of node's stream, then exiting at once (main.ts), saves a served
  // search about 1 ms on a pipe.
  const terminal = mayBeTerminal(1);
  const response = await requestDaemon(socketPath, {
    v: 1,
    argv: args,
    cwd: process.cwd(),
    columns: terminal ? (process.stdout.columns ?? null) : null,
    isTTY: terminal && process.stdout.isTTY === true,
    noColor: Boolean(process.env.NO_COLOR),
  });
  if (response === null) return null;
  const flushed = writeFully(1, response.stdout) && writeFully(2, response.stderr);
  return { exitCode: response.exitCode, flushed };
}

/** Whether fd is a character device (a terminal, or /dev/null); pipes, files and sockets are not terminals. */
function mayBeTerminal(fd: number): boolean {
  try {
    return fstatSync(fd).isCharacterDevice();
  } catch {
    return true; // Let process.stdout decide.
  }
}

/**
 * Writes `text` to `fd` synchronously; true when nothing is left to write. A reader that has gone away
 * (EPIPE, as after `| head -1`) ends the writing quietly. A descriptor that would
 * block (a non-blocking pipe that is full) or fails otherwise hands the rest to node's stream for that
 * fd, which writes it before the process exits: false then.
 */
export function writeFully(fd: 1 | 2, text: string, write: (fd: number, data: Buffer) => number = writeSync): boolean {
  const data = Buffer.from(text, 'utf8');
  let done = 0;
  try {
    while (done < data.length) done += write(fd, data.subarray(done));
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EPIPE') return true;
    (fd === 1 ? process.stdout : process.stderr).write(data.subarray(done));
    return false;
  }
}
