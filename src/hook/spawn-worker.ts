/**
 * Starts background recall processes fully detached: own session, no stdio, not waited for.
 * The capture worker runs at a lower CPU priority (nice 10): it is background work, and on a
 * two-core machine it should yield to the agent, and to the hook that is still exiting, rather
 * than compete with them. It still gets every idle cycle, so its jobs finish as before.
 * node:child_process (with net and dgram, a few ms to load) is loaded on the first spawn only:
 * the hook runner imports this file, and most SessionStart hooks never spawn.
 */
import { setPriority } from 'node:os';
import { fileURLToPath } from 'node:url';

export const CLI_ENTRY = fileURLToPath(new URL('../cli/main.js', import.meta.url));

/** The capture worker's niceness (os.constants.priority.PRIORITY_BELOW_NORMAL on Windows). */
export const WORKER_PRIORITY = 10;

/** Starts the queue worker at `WORKER_PRIORITY`; see `spawnDetached`. */
export function spawnDetachedWorker(env: NodeJS.ProcessEnv, cwd: string): Promise<boolean> {
  return spawnDetached(['worker'], env, cwd, { priority: WORKER_PRIORITY });
}

/**
 * Runs `recall <args>` detached, at `priority` (a niceness) when given. Resolves true once the child
 * has a pid, false when the spawn failed. Never throws.
 */
export async function spawnDetached(
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  cwd: string,
  { priority }: { priority?: number } = {},
): Promise<boolean> {
  const childProcess = await import('node:child_process').catch(() => null);
  if (childProcess === null) return false;
  return new Promise((resolve) => {
    try {
      const child = childProcess.spawn(process.execPath, [CLI_ENTRY, ...args], {
        detached: true,
        stdio: 'ignore',
        env,
        cwd,
        windowsHide: true,
      });
      if (priority !== undefined && child.pid !== undefined) lowerPriority(child.pid, priority);
      child.once('error', () => resolve(false));
      child.once('spawn', () => {
        child.unref();
        resolve(true);
      });
    } catch {
      resolve(false);
    }
  });
}

/** Right after the spawn, before the child has done much; a child that is gone already or a refusal changes nothing. */
function lowerPriority(pid: number, priority: number): void {
  try {
    setPriority(pid, priority);
  } catch {
    // ESRCH (exited at once) or EPERM (not ours to change): it runs at the normal priority.
  }
}
