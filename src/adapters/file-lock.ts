/**
 * Inter-process locks (proper-lockfile, mkdir-based, refreshed while held, stale after `staleMs`).
 * The queue lock makes one worker the owner of the spool; the store lock serialises writes
 * to the memory table between the worker, `recall capture`, `recall add` and other writers.
 *
 * A lock taken with `keepFromLiveHolder` also holds a stamp of its holder's process inside the lock
 * folder. A holder that stalls past the stale time (starved of CPU, stopped) keeps such a lock: the
 * stamp makes the folder non-empty, so proper-lockfile's takeover (an rmdir) fails, and a waiter
 * clears the stamp itself only once its process is gone (job-owner.ts), or after HARD_STALE_FACTOR
 * stale times in case a process is stuck for good. For the same reason a stalled holder's late
 * release cannot remove the folder of the holder that replaced it.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { readdirSync, rmdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import lockfile from 'proper-lockfile';
import { RecallError } from '../core/errors.js';
import { ensureDir } from '../core/atomic-write.js';
import { currentOwner, isOwnerAlive, ownedName, ownerOf } from '../core/job-owner.js';

export interface LockOptions {
  /** How long to keep trying before giving up; 0 = one attempt. */
  waitMs: number;
  staleMs: number;
  /** Called when the lock was lost while held (for example the process stalled past `staleMs`). */
  onCompromised?: (err: Error) => void;
  /** Leave a stale lock to its holder while that process still runs (see above). */
  keepFromLiveHolder?: boolean;
}

export type Release = () => Promise<void>;

/** Past this many stale times a lock is taken over even from a running holder: it is stuck, not slow. */
export const HARD_STALE_FACTOR = 10;
/** Enough to outlast a handful of racing takeovers; a state dir that is really gone fails every time. */
const QUICK_ATTEMPTS = 20;
const POLL_MS = 200;
const STAMP = 'holder.json';

/** Returns a release function, or null when the lock is held elsewhere after `waitMs`. */
export async function tryLock(dir: string, name: string, options: LockOptions): Promise<Release | null> {
  ensureDir(dir);
  const staleMs = Math.max(5000, options.staleMs);
  const lockDir = join(dir, `${name}.lock`);
  const keep = options.keepFromLiveHolder === true;
  const deadline = Date.now() + Math.max(0, options.waitMs);
  /** Attempts made again at once (a vanished folder, cleared stamps) since the last wait; bounded so nothing spins. */
  let again = 0;
  for (;;) {
    try {
      // proper-lockfile tracks held locks by the locked path, so each lock needs its own path.
      const release = await lockfile.lock(join(dir, name), {
        lockfilePath: lockDir,
        realpath: false,
        stale: staleMs,
        update: Math.floor(staleMs / 2),
        retries: 0, // waited for here, between looks at the holder
        onCompromised: options.onCompromised ?? (() => undefined),
      });
      const stamp = keep ? writeStamp(lockDir) : null;
      return async () => {
        if (stamp !== null) rmSync(stamp, { force: true });
        try {
          await release();
        } catch {
          // Already released or compromised (or replaced by another holder's stamped folder): nothing left to undo.
        }
      };
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      // The lock folder vanished between our mkdir and its first touch, or between a look and a
      // takeover: another process released it or took over a stale one at that instant. Look again.
      if (code === 'ENOENT' && (again += 1) < QUICK_ATTEMPTS) continue;
      const held = code === 'ELOCKED' || (keep && code === 'ENOTEMPTY');
      if (!held) throw new RecallError('STATE_UNWRITABLE', `cannot take the ${name} lock in ${dir}: ${(err as Error).message}`, { cause: err });
      // ENOTEMPTY: stale, but stamped. Clear the stamps of holders that are gone and try again at once.
      if (code === 'ENOTEMPTY' && clearGoneHolders(lockDir, staleMs) && (again += 1) < QUICK_ATTEMPTS) continue;
      if (Date.now() >= deadline) return null;
      again = 0;
      await sleep(POLL_MS);
    }
  }
}

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

/**
 * The stamp's path, or null when it could not be written (a full disk): the lock then goes stale by
 * time alone. Adding a file changes the folder's mtime, which proper-lockfile compares with the one it
 * set to tell whether the lock is still its own, so that mtime is put back.
 */
function writeStamp(lockDir: string): string | null {
  const stamp = join(lockDir, ownedName(STAMP, currentOwner()));
  try {
    const { atime, mtime } = statSync(lockDir);
    writeFileSync(stamp, '', { mode: 0o600 });
    utimesSync(lockDir, atime, mtime);
    return stamp;
  } catch {
    rmSync(stamp, { force: true });
    return null;
  }
}

/**
 * Removes the stamps of a stale lock whose holders are gone; false (nothing removed) while one still
 * runs and the lock is younger than the hard limit.
 */
function clearGoneHolders(lockDir: string, staleMs: number): boolean {
  let names: string[];
  let age: number;
  try {
    names = readdirSync(lockDir);
    age = Date.now() - statSync(lockDir).mtimeMs;
  } catch {
    return true; // Gone meanwhile: look again.
  }
  if (age < HARD_STALE_FACTOR * staleMs) {
    const live = names.some((name) => {
      const owner = ownerOf(name);
      return owner !== null && isOwnerAlive(owner);
    });
    if (live) return false;
  }
  try {
    for (const name of names) rmSync(join(lockDir, name), { force: true, recursive: true });
    // Removing the stamps made the folder look fresh; remove it too (a new holder's stamp makes this fail).
    rmdirSync(lockDir);
  } catch {
    // Gone already, taken over meanwhile, or not ours to remove: the next attempt sees which.
  }
  return true;
}
