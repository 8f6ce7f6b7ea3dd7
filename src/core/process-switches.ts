/**
 * The two switches a single process reads from its environment (listed, with the other variables
 * that are no config key, in config/environment-only.ts), from the environment its caller hands in.
 */

/** Whether hooks may start a worker: `RECALL_HOOK_SPAWN=false` (or 0, no, off) says they only queue. */
export function hookSpawnAllowed(env: NodeJS.ProcessEnv): boolean {
  return !/^(0|false|no|off)$/i.test(env.RECALL_HOOK_SPAWN ?? '');
}

/** Whether this process may use a running `recall serve`: `RECALL_NO_SERVE=1` (or true, yes) says no. */
export function serveAllowed(env: NodeJS.ProcessEnv): boolean {
  return !/^(1|true|yes)$/i.test(env.RECALL_NO_SERVE ?? '');
}
