/**
 * The client side of `recall serve`: one JSON request line over the Unix socket in the state dir, one
 * JSON answer line back. Node built-ins only, so `recall search` can try the daemon before it loads
 * anything heavy. Any problem (no socket, dead daemon, timeout, a daemon that dies mid-answer)
 * answers null: the caller then does the work in-process, with the same result.
 */
import { lstatSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { serveAllowed } from '../core/process-switches.js';

/** A command line run by the daemon for `recall search` / `recall list`. */
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

/** Is the daemon there? Answered without touching the table, so a busy big store still answers at once. */
export const PING_REQUEST = { v: 1, op: 'ping' } as const;

export function serveSocketPath(home: string): string {
  return join(home, 'serve.sock');
}

/** The socket of the daemon for this state dir, or null when serve use is switched off. */
export function serveLink(home: string, env: NodeJS.ProcessEnv): string | null {
  return serveAllowed(env) ? serveSocketPath(home) : null;
}

/**
 * Whether `socketPath` is a socket this user owns. A socket someone else put there (or a symlink to
 * one) is never talked to: it would see the command lines and could answer anything.
 */
export function isOwnSocket(socketPath: string): boolean {
  try {
    const info = lstatSync(socketPath);
    const uid = typeof process.getuid === 'function' ? process.getuid() : null;
    return info.isSocket() && (uid === null || info.uid === uid);
  } catch {
    return false;
  }
}

/** Sends one request line and parses the one answer line; null on any failure, or when the socket is not the user's own. */
export function exchange(socketPath: string, request: object, timeoutMs = 30_000): Promise<unknown> {
  if (!isOwnSocket(socketPath)) return Promise.resolve(null);
  return new Promise((resolve) => {
    let settled = false;
    let data = '';
    const done = (value: unknown): void => {
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
      if (end >= 0) done(parseLine(data.slice(0, end)));
    });
    socket.once('end', () => done(parseLine(data)));
    socket.once('connect', () => socket.write(`${JSON.stringify(request)}\n`));
  });
}

/** Runs a command line (or stops the daemon); null means "run it here instead". */
export async function requestDaemon(socketPath: string, request: ServeRequest | { v: 1; stop: true }, timeoutMs = 30_000): Promise<ServeResponse | null> {
  const value = (await exchange(socketPath, request, timeoutMs)) as Partial<ServeResponse> | null;
  if (value !== null && typeof value.stdout === 'string' && typeof value.stderr === 'string' && typeof value.exitCode === 'number') {
    return value as ServeResponse;
  }
  return null;
}

/** Whether a daemon answers on the socket at all (any answer counts: an older daemon may not know `ping`). */
export async function daemonAnswers(socketPath: string, timeoutMs: number): Promise<boolean> {
  return (await pingDaemon(socketPath, timeoutMs)) !== null;
}

/** The daemon answering on the socket, with its pid (null from a daemon that does not know `ping`); null when none answers. */
export async function pingDaemon(socketPath: string, timeoutMs: number): Promise<{ pid: number | null } | null> {
  const answer = (await exchange(socketPath, PING_REQUEST, timeoutMs)) as { pid?: unknown } | null;
  if (answer === null) return null;
  return { pid: typeof answer.pid === 'number' ? answer.pid : null };
}

function parseLine(line: string): unknown {
  try {
    const value: unknown = JSON.parse(line);
    return typeof value === 'object' && value !== null ? value : null;
  } catch {
    return null; // A daemon that died mid-answer: fall back.
  }
}
