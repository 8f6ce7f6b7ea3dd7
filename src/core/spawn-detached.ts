/**
 * Starts a node script fully detached: own session, no stdio, not waited for, so a background job
 * outlives the short process that started it without keeping it alive. node:child_process (with
 * net and dgram, a few ms to load) is loaded on the first spawn only: hooks import this file, and
 * most hook runs never spawn. Node built-ins only.
 */
import { setPriority } from 'node:os';

/**
 * Runs `node <script> <args>` detached, at `priority` (a niceness) when given. Resolves true once
 * the child has a pid (handed to `onSpawn` first), false when the spawn failed. Never throws.
 */
export async function spawnDetached(
  script: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  cwd: string,
  { priority, onSpawn }: { priority?: number; onSpawn?: (pid: number) => void } = {},
): Promise<boolean> {
  const childProcess = await import('node:child_process').catch(() => null);
  if (childProcess === null) return false;
  return new Promise((resolve) => {
    try {
      const child = childProcess.spawn(process.execPath, [script, ...args], {
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
        if (child.pid !== undefined) onSpawn?.(child.pid);
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
