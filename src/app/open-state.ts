/**
 * What every command, worker and server starts from: the parsed config, a state dir that exists, a
 * log that redacts; and the runtime built from them. The environment is handed in by the entry point.
 */
import { loadConfig, type LoadedConfig } from '../config/load-config.js';
import { fileLogger, type Logger } from '../core/log.js';
import { assertStateFolders } from '../core/private-paths.js';
import { ensureStateDir } from '../core/state-paths.js';
import { redactSecrets } from '../redact/redact-secrets.js';
import { serveAllowed } from '../core/process-switches.js';
import { createRuntime, type Runtime } from './runtime.js';

export function openState(env: NodeJS.ProcessEnv, component = 'cli'): { loaded: LoadedConfig; logger: Logger } {
  const loaded = loadConfig(env);
  ensureStateDir(loaded.paths.home);
  assertStateFolders(loaded.paths);
  return { loaded, logger: fileLogger(loaded.paths.logFile, component, { redact: (line) => redactSecrets(line).text }) };
}

/** The parts for a command, a worker or the MCP server; a running `recall serve` is used unless RECALL_NO_SERVE says no. */
export function runtimeFor(loaded: LoadedConfig, env: NodeJS.ProcessEnv, longLived = false): Runtime {
  return createRuntime(loaded, { useServe: serveAllowed(env), longLived });
}

/** Opens the state, runs `fn` with a fresh runtime, and closes the runtime's store afterwards. */
export async function withRuntime<T>(env: NodeJS.ProcessEnv, fn: (runtime: Runtime, logger: Logger) => Promise<T>): Promise<T> {
  const { loaded, logger } = openState(env);
  const runtime = runtimeFor(loaded, env);
  try {
    return await fn(runtime, logger);
  } finally {
    await runtime.close();
  }
}
