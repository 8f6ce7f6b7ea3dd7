/**
 * Starts background recall processes fully detached (see core/spawn-detached.ts).
 * The capture worker runs at a lower CPU priority (nice 10): it is background work, and on a
 * two-core machine it should yield to the agent, and to the hook that is still exiting, rather
 * than compete with them. It still gets every idle cycle, so its jobs finish as before.
 * One worker at a time: a live one (or one being started) is left to run the queue (start-marker.ts).
 */
import { fileURLToPath } from 'node:url';
import { spawnDetached } from '../core/spawn-detached.js';
import { claimStart, recordStarted, releaseStart } from '../core/start-marker.js';

export const CLI_ENTRY = fileURLToPath(new URL('../cli/main.js', import.meta.url));

/** The capture worker's niceness (os.constants.priority.PRIORITY_BELOW_NORMAL on Windows). */
export const WORKER_PRIORITY = 10;

/** The name of the worker's lock and start marker in the state dir. */
export const WORKER_NAME = 'worker';

export type WorkerStart = 'started' | 'running' | 'not needed' | 'failed';

/**
 * Starts the queue worker at `WORKER_PRIORITY` unless one runs already (it drains every job,
 * this caller's included). `home` is the state dir that holds the queue lock and the marker.
 * `notNeeded` is asked again once the start is claimed: a worker that was leaving writes its notes
 * (jobs waiting for a model) before it lets go of the marker, so a caller that looked before that
 * note was written sees it now, and starts no worker only to have it find the same and leave.
 */
export async function spawnDetachedWorker(env: NodeJS.ProcessEnv, cwd: string, home: string = cwd, notNeeded?: () => boolean): Promise<WorkerStart> {
  if (!claimStart(home, WORKER_NAME)) return 'running';
  if (notNeeded?.()) {
    releaseStart(home, WORKER_NAME, null);
    return 'not needed';
  }
  const spawned = await spawnDetached(CLI_ENTRY, ['worker'], env, cwd, {
    priority: WORKER_PRIORITY,
    onSpawn: (pid) => recordStarted(home, WORKER_NAME, pid),
  });
  if (!spawned) releaseStart(home, WORKER_NAME, null);
  return spawned ? 'started' : 'failed';
}
