/** Starts the capture worker fully detached: own session, no stdio, not waited for. */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const CLI_ENTRY = fileURLToPath(new URL('../cli/main.js', import.meta.url));

/** Starts the queue worker; see `spawnDetached`. */
export function spawnDetachedWorker(env: NodeJS.ProcessEnv, cwd: string): Promise<boolean> {
  return spawnDetached(['worker'], env, cwd);
}

/** Runs `recall <args>` detached. Resolves true once the child has a pid, false when the spawn failed. Never throws. */
export function spawnDetached(args: readonly string[], env: NodeJS.ProcessEnv, cwd: string): Promise<boolean> {
  return new Promise((resolve) => {
    try {
      const child = spawn(process.execPath, [CLI_ENTRY, ...args], {
        detached: true,
        stdio: 'ignore',
        env,
        cwd,
        windowsHide: true,
      });
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
