/**
 * At most one background process of a kind (the capture worker, store upkeep) at a time, checked
 * before spawning, with built-ins only and a few file calls: a burst of fifty session ends must start
 * one worker, not fifty that mostly find the lock held and leave.
 *
 * A process of the kind counts as live while its lock folder (`<name>.lock`, refreshed every few
 * seconds by its holder) is fresh, or while its start marker (`<name>.starting`) names a process that
 * runs. Whoever starts one creates the marker exclusively (O_EXCL: of fifty racing hooks one wins),
 * spawns, and writes the child's pid into it; the child removes it as it exits. A marker whose starter
 * died before writing a pid goes stale after `STARTING_STALE_MS`.
 */
import { closeSync, linkSync, openSync, readFileSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';

/**
 * A marker without a pid is the starter's, between its claim and its spawn: a few ms, but in a burst of
 * 200 hooks on 2 cores a hook took up to 50 s to return, so a starter is given a minute before another
 * hook counts it as dead and starts a worker itself.
 */
export const STARTING_STALE_MS = 60_000;
/** A lock folder refreshed more recently than this belongs to a live holder (proper-lockfile refreshes every staleMs / 2). */
export const LIVE_LOCK_MS = 30_000;

export function markerPath(home: string, name: string): string {
  return join(home, `${name}.starting`);
}

/** Whether a process of this kind runs (or is being started) now. */
export function isRunningOrStarting(home: string, name: string, now: number = Date.now()): boolean {
  return lockIsFresh(home, name, now) || markerIsLive(home, name, now);
}

/**
 * Claims the right to start one: true when no process of the kind runs and this caller made the
 * marker. The caller then spawns and hands the pid to `recordStarted` (or `releaseStart` on failure).
 */
export function claimStart(home: string, name: string, now: number = Date.now()): boolean {
  if (lockIsFresh(home, name, now)) return false;
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      closeSync(openSync(markerPath(home, name), 'wx', 0o600));
      return true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') return true; // No marker possible (full disk): start anyway.
      const judged = markerInode(markerPath(home, name));
      if (markerIsLive(home, name, now)) return false;
      if (!setAsideStale(home, name, judged)) return false;
    }
  }
  return false;
}

/**
 * Removes the marker judged stale, and only that one: between the judgement and the removal its owner
 * may have let go and another starter (or the leaving process, taking it back) made a new one, which
 * a plain removal would delete from under it. The marker is moved aside first (atomic); when the file
 * moved is not the one judged, it is put back and this caller leaves the start to its maker.
 */
function setAsideStale(home: string, name: string, judged: string | null): boolean {
  const marker = markerPath(home, name);
  const aside = `${marker}.${process.pid}.stale`;
  try {
    renameSync(marker, aside);
  } catch {
    return true; // Gone already: try to claim it afresh.
  }
  const moved = markerInode(aside);
  if (moved !== judged) {
    try {
      linkSync(aside, marker);
    } catch {
      // Yet another marker is there: that maker starts one.
    }
    rmSync(aside, { force: true });
    return false;
  }
  rmSync(aside, { force: true });
  return true;
}

/** The file's identity: its inode and modification time (a new file that reuses the inode has a newer one; a rename keeps both). */
function markerInode(file: string): string | null {
  try {
    const stat = statSync(file, { bigint: true });
    return `${stat.ino}/${stat.mtimeNs}`;
  } catch {
    return null;
  }
}

/** Writes the started process's pid into the marker this caller claimed. */
export function recordStarted(home: string, name: string, pid: number): void {
  try {
    const fd = openSync(markerPath(home, name), 'w', 0o600);
    try {
      writeSync(fd, String(pid));
    } finally {
      closeSync(fd);
    }
  } catch {
    // The marker then goes stale by time alone.
  }
}

/** Removes the marker when it names `pid` (the process itself as it exits) or names nobody yet (a failed spawn). */
export function releaseStart(home: string, name: string, pid: number | null): void {
  const named = markerPid(home, name);
  if (named === undefined) return;
  if (named === null ? pid !== null : named !== pid) return;
  rmSync(markerPath(home, name), { force: true });
}

function lockIsFresh(home: string, name: string, now: number): boolean {
  try {
    return now - statSync(join(home, `${name}.lock`)).mtimeMs < LIVE_LOCK_MS;
  } catch {
    return false;
  }
}

function markerIsLive(home: string, name: string, now: number): boolean {
  const pid = markerPid(home, name);
  if (pid === undefined) return false;
  if (pid !== null) return isAlive(pid);
  try {
    return now - statSync(markerPath(home, name)).mtimeMs < STARTING_STALE_MS;
  } catch {
    return false;
  }
}

/** The pid in the marker; null when it holds none yet; undefined when there is no marker. */
function markerPid(home: string, name: string): number | null | undefined {
  let text: string;
  try {
    text = readFileSync(markerPath(home, name), 'utf8');
  } catch {
    return undefined;
  }
  const pid = Number.parseInt(text.trim(), 10);
  return Number.isInteger(pid) && pid > 0 ? pid : null;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * How a process that ran out of work leaves without a second one starting beside it: it lets go of
 * its marker, then looks for work once more. A starter that queued work before the marker went saw
 * the marker and started nobody, so that work is seen by this look; one that comes after finds no
 * marker and starts the next process. When the look finds work, this process takes the marker back
 * and carries on (true), unless a starter took it first (false: that starter's process runs it).
 * The caller finishes its slow teardown before calling this and exits right after a false, so a
 * successor never runs beside it for longer than the exit itself.
 */
export function releaseOrKeep(home: string, name: string, pid: number, hasWork: () => boolean): boolean {
  releaseStart(home, name, pid);
  if (!hasWork() || !claimStart(home, name)) return false;
  recordStarted(home, name, pid);
  return true;
}
