/**
 * `recall ui` hosted by a running `recall serve` with the same configuration: the page is served from
 * inside the daemon, over its open table and loaded embedder, for as long as this connection stays
 * open. The daemon answers one line (the page's URL and its own pid) and keeps the connection; a `close`
 * line, or the connection ending (this process killed), stops the page. Null whenever it cannot (none
 * running, another configuration, an older daemon, a bad answer): the caller then serves the page itself.
 */
import { connect, type Socket } from 'node:net';
import { isOwnSocket } from './serve-client.js';
import type { RefusedAnswer, ServeIdentity } from './serve-protocol.js';

export interface UiRequest {
  v: 1;
  op: 'ui';
  expect: ServeIdentity;
  /** The port on 127.0.0.1 the page listens on; 0 picks a free one. */
  port: number;
  /** The client's folder: the health page checks it as `recall doctor` run there would. */
  cwd: string;
}

/** `url` to print and `openUrl` for the browser opener, each with its own one-time code. */
export type UiAnswer = { ok: true; url: string; openUrl: string; pid: number } | RefusedAnswer;

/** The line that asks the daemon to stop the page before the connection ends. */
export const UI_CLOSE_LINE = '{"op":"close"}\n';

export interface ServedUi {
  url: string;
  openUrl: string;
  /** The daemon's pid. */
  pid: number;
  /** Resolves when the connection ends: the page is gone (closed here, or the daemon stopped). */
  ended: Promise<void>;
  /** Asks the daemon to stop the page; resolves once it did (or after `timeoutMs`). */
  close(timeoutMs?: number): Promise<void>;
}

export function openUiThroughServe(socketPath: string, request: UiRequest, timeoutMs = 30_000): Promise<ServedUi | null> {
  if (!isOwnSocket(socketPath)) return Promise.resolve(null);
  return new Promise((resolve) => {
    let data = '';
    let answered = false;
    const socket = connect(socketPath);
    const ended = new Promise<void>((done) => socket.once('close', () => done()));
    const give = (value: ServedUi | null): void => {
      if (answered) return;
      answered = true;
      socket.removeAllListeners('data');
      socket.setTimeout(0);
      if (value === null) socket.destroy();
      resolve(value);
    };
    socket.setEncoding('utf8');
    socket.setTimeout(timeoutMs, () => give(null));
    socket.on('error', () => give(null));
    socket.once('close', () => give(null));
    socket.once('connect', () => socket.write(`${JSON.stringify(request)}\n`));
    socket.on('data', (chunk: string) => {
      data += chunk;
      const end = data.indexOf('\n');
      if (end < 0) return;
      const answer = readAnswer(data.slice(0, end));
      give(answer === null ? null : { ...answer, ended, close: (wait) => closeServedUi(socket, ended, wait) });
    });
  });
}

function readAnswer(line: string): { url: string; openUrl: string; pid: number } | null {
  try {
    const value = JSON.parse(line) as Partial<UiAnswer> | null;
    if (value === null || typeof value !== 'object' || value.ok !== true) return null;
    const { url, openUrl, pid } = value as { url?: unknown; openUrl?: unknown; pid?: unknown };
    const local = (u: unknown): u is string => typeof u === 'string' && u.startsWith('http://127.0.0.1:');
    // An older daemon hands one URL: an opener never gets one, rather than the printed one.
    return local(url) && typeof pid === 'number' ? { url, openUrl: local(openUrl) ? openUrl : '', pid } : null;
  } catch {
    return null;
  }
}

async function closeServedUi(socket: Socket, ended: Promise<void>, timeoutMs = 5_000): Promise<void> {
  // A write, not an end: the daemon ends the connection itself once the page is stopped.
  if (!socket.destroyed) socket.write(UI_CLOSE_LINE);
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([ended, new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs)))]);
  clearTimeout(timer);
  socket.destroy();
}
