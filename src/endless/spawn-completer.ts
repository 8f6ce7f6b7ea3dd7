/**
 * Starts `recall endless complete <session> <tool_use_id>` fully detached (own session, no stdio,
 * not waited for), so an observation the hook could not wait for is still finished, without
 * keeping the hook alive. `cliEntry` is recall's CLI script, which the caller knows. Node built-ins only.
 */
import { spawnDetached } from '../core/spawn-detached.js';

/** Resolves true once the child has a pid, false when the spawn failed. Never throws. */
export function spawnDetachedCompleter(cliEntry: string, env: NodeJS.ProcessEnv, cwd: string, sessionId: string, toolUseId: string): Promise<boolean> {
  return spawnDetached(cliEntry, ['endless', 'complete', sessionId, toolUseId], env, cwd);
}
