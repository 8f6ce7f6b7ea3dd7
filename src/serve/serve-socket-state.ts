/**
 * What is at the serve socket path before a daemon starts: nothing, the socket of a dead daemon (safe
 * to replace), a daemon that answers, something else listening, a file that is not a socket, or a
 * socket of another user. `recall serve` and `recall serve --detach` both ask before they start, so
 * the detached start can say why it cannot start instead of waiting for a daemon that never comes.
 */
import { lstatSync } from 'node:fs';
import { connect } from 'node:net';
import { RecallError } from '../core/errors.js';
import { pingDaemon } from '../serve-client/serve-client.js';

export type ServeSocketState =
  | { kind: 'absent' }
  | { kind: 'stale' }
  | { kind: 'daemon'; pid: number | null }
  | { kind: 'listening' }
  | { kind: 'not-socket' }
  | { kind: 'other-user'; uid: number };

export async function inspectServeSocket(socketPath: string, uid: number | null): Promise<ServeSocketState> {
  let stat;
  try {
    stat = lstatSync(socketPath);
  } catch {
    return { kind: 'absent' };
  }
  if (!stat.isSocket()) return { kind: 'not-socket' };
  if (uid !== null && stat.uid !== uid) return { kind: 'other-user', uid: stat.uid };
  const daemon = await pingDaemon(socketPath, 2_000);
  if (daemon !== null) return { kind: 'daemon', pid: daemon.pid };
  return (await acceptsConnections(socketPath, 1_000)) ? { kind: 'listening' } : { kind: 'stale' };
}

/** Why a daemon cannot start on this socket path; null when it can (after removing a stale socket). */
export function serveSocketProblem(state: ServeSocketState, socketPath: string): RecallError | null {
  switch (state.kind) {
    case 'absent':
    case 'stale':
      return null;
    case 'daemon':
      return new RecallError('LOCK_HELD', `recall serve is already running on ${socketPath}${state.pid !== null ? ` (pid ${state.pid})` : ''}`);
    case 'listening':
      return new RecallError('LOCK_HELD', `another process is listening on ${socketPath} and is not recall serve; stop it or remove the socket`);
    case 'not-socket':
      return new RecallError('STATE_UNWRITABLE', `${socketPath} exists and is not a socket; remove it and start again`);
    case 'other-user':
      return new RecallError('STATE_UNWRITABLE', `${socketPath} belongs to another user (uid ${state.uid}); refusing to use it`);
  }
}

/** True when something accepts a connection on the socket (a live listener, whatever it speaks). */
function acceptsConnections(socketPath: string, timeoutMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(socketPath);
    const done = (live: boolean): void => {
      clearTimeout(timer);
      socket.destroy();
      resolve(live);
    };
    // Connected, or too busy to say within the time: either way something holds it.
    const timer = setTimeout(() => done(true), timeoutMs);
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}
