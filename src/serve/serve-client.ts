/**
 * The client side of `recall serve`: send one command line over the Unix socket in the state dir
 * and get its output back. Node built-ins only, so `recall search` can try the daemon before it
 * loads anything heavy. Any problem (no socket, dead daemon, timeout) answers null: the caller
 * then runs the command in-process, with the same result.
 */
import { existsSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';

export interface ServeRequest {
  v: 1;
  argv: string[];
  cwd: string;
  columns: number | null;
  isTTY: boolean;
  noColor: boolean;
}

export interface ServeResponse {
  stdout: string;
  stderr: string;
  exitCode: number;
}

/** Commands the daemon runs for clients: read-only ones that gain from a warm table and embedder. */
export const SERVED_COMMANDS: ReadonlySet<string> = new Set(['search', 'list']);

export function serveSocketPath(home: string): string {
  return join(home, 'serve.sock');
}

export function requestDaemon(socketPath: string, request: ServeRequest | { v: 1; stop: true }, timeoutMs = 30_000): Promise<ServeResponse | null> {
  if (!existsSync(socketPath)) return Promise.resolve(null);
  return new Promise((resolve) => {
    let settled = false;
    let data = '';
    const done = (value: ServeResponse | null): void => {
      if (settled) return;
      settled = true;
      socket.destroy();
      resolve(value);
    };
    const socket = connect(socketPath);
    socket.setEncoding('utf8');
    socket.setTimeout(timeoutMs, () => done(null));
    socket.once('error', () => done(null));
    socket.on('data', (chunk: string) => {
      data += chunk;
      const end = data.indexOf('\n');
      if (end >= 0) done(parseResponse(data.slice(0, end)));
    });
    socket.once('end', () => done(parseResponse(data)));
    socket.once('connect', () => socket.write(`${JSON.stringify(request)}\n`));
  });
}

function parseResponse(line: string): ServeResponse | null {
  try {
    const value = JSON.parse(line) as Partial<ServeResponse>;
    if (typeof value.stdout === 'string' && typeof value.stderr === 'string' && typeof value.exitCode === 'number') return value as ServeResponse;
  } catch {
    // A daemon that died mid-answer: fall back.
  }
  return null;
}
