/** Failed captures back to the queue (`recall retry`, the sessions page of `recall ui`), attempts reset. */
import type { StatePaths } from '../core/state-paths.js';
import { Spool } from './spool.js';

/** How many jobs went back; damaged files (not jobs) stay for the user to inspect. */
export function requeueFailed(paths: StatePaths): number {
  const spool = new Spool(paths);
  let moved = 0;
  for (const entry of spool.list('failed')) {
    if (!entry.job) continue;
    spool.updateAndMove(entry, { ...entry.job, attempts: 0, crashes: 0, notBefore: null }, 'pending');
    moved += 1;
  }
  return moved;
}
