/**
 * Starts background recall processes fully detached (see core/spawn-detached.ts).
 * The capture worker runs at a lower CPU priority (nice 10): it is background work, and on a
 * two-core machine it should yield to the agent, and to the hook that is still exiting, rather
 * than compete with them. It still gets every idle cycle, so its jobs finish as before.
 */
import { fileURLToPath } from 'node:url';
import { spawnDetached } from '../core/spawn-detached.js';

export const CLI_ENTRY = fileURLToPath(new URL('../cli/main.js', import.meta.url));

/** The capture worker's niceness (os.constants.priority.PRIORITY_BELOW_NORMAL on Windows). */
export const WORKER_PRIORITY = 10;

/** Starts the queue worker at `WORKER_PRIORITY`. Resolves true once it has a pid, false when the spawn failed. */
export function spawnDetachedWorker(env: NodeJS.ProcessEnv, cwd: string): Promise<boolean> {
  return spawnDetached(CLI_ENTRY, ['worker'], env, cwd, { priority: WORKER_PRIORITY });
}
