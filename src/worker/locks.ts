/**
 * Inter-process locks (proper-lockfile, mkdir-based, refreshed while held, stale after `staleMs`).
 * The queue lock makes one worker the owner of the spool; the store lock serialises writes
 * to the memory table between the worker, `recall capture`, `recall add` and other writers.
 */
import lockfile from 'proper-lockfile';
import { RecallError } from '../core/errors.js';
import { ensureDir } from '../queue/atomic-write.js';

export interface LockOptions {
  /** How long to keep trying before giving up; 0 = one attempt. */
  waitMs: number;
  staleMs: number;
  /** Called when the lock was lost while held (for example the process stalled past `staleMs`). */
  onCompromised?: (err: Error) => void;
}

export type Release = () => Promise<void>;

/** Returns a release function, or null when the lock is held elsewhere after `waitMs`. */
export async function tryLock(dir: string, name: string, options: LockOptions): Promise<Release | null> {
  ensureDir(dir);
  const staleMs = Math.max(5000, options.staleMs);
  const retries =
    options.waitMs <= 0
      ? 0
      : { retries: Math.ceil(options.waitMs / 200), factor: 1, minTimeout: 200, maxTimeout: 200 };
  for (let attempt = 1; ; attempt += 1) {
    try {
      // proper-lockfile tracks held locks by the locked path, so each lock needs its own path.
      const release = await lockfile.lock(`${dir}/${name}`, {
        lockfilePath: `${dir}/${name}.lock`,
        realpath: false,
        stale: staleMs,
        update: Math.floor(staleMs / 2),
        retries,
        onCompromised: options.onCompromised ?? (() => undefined),
      });
      return async () => {
        try {
          await release();
        } catch {
          // Already released or compromised: nothing left to undo.
        }
      };
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ELOCKED') return null;
      // The lock folder vanished between our mkdir and its first touch, or between a look and a
      // takeover: another process released it or took over a stale one at that instant. Look again
      // (with a wait, proper-lockfile's own retries already do).
      if (code === 'ENOENT' && retries === 0 && attempt < ENOENT_ATTEMPTS) continue;
      throw new RecallError('STATE_UNWRITABLE', `cannot take the ${name} lock in ${dir}: ${(err as Error).message}`, { cause: err });
    }
  }
}

/** Enough to outlast a handful of racing takeovers; a state dir that is really gone fails every time. */
const ENOENT_ATTEMPTS = 20;

/** Runs `fn` holding the named lock, waiting up to `waitMs` for it. */
export async function withLock<T>(dir: string, name: string, options: LockOptions, fn: () => Promise<T>): Promise<T> {
  const release = await tryLock(dir, name, options);
  if (!release) throw new RecallError('LOCK_HELD', `the ${name} lock in ${dir} is held by another process`);
  try {
    return await fn();
  } finally {
    await release();
  }
}
