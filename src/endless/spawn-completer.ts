/**
 * Starts `recall endless complete <session> <tool_use_id>` fully detached (own session, no stdio,
 * not waited for), so an observation the hook could not wait for is still finished, without
 * keeping the hook alive. Node built-ins only.
 */
import { spawn } from 'node:child_process';
import { CLI_ENTRY } from '../hook/spawn-worker.js';

/** Resolves true once the child has a pid, false when the spawn failed. Never throws. */
export function spawnDetachedCompleter(env: NodeJS.ProcessEnv, cwd: string, sessionId: string, toolUseId: string): Promise<boolean> {
  return new Promise((resolve) => {
    try {
      const child = spawn(process.execPath, [CLI_ENTRY, 'endless', 'complete', sessionId, toolUseId], {
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
