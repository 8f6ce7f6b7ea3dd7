/** What every command starts from: the parsed config, a state dir that exists, a log. */
import { loadConfig, type LoadedConfig } from '../config/load-config.js';
import { RecallError } from '../core/errors.js';
import { fileLogger, type Logger } from '../core/log.js';
import { redactSecrets } from '../redact/redact-secrets.js';
import { assertStateFolders } from '../core/private-paths.js';
import { ensureStateDir } from '../core/state-paths.js';
import { serveAllowed } from '../serve/serve-client.js';
import { createRuntime, type Runtime } from '../worker/runtime.js';
import { commandEnv } from './terminal.js';

export function openState(component = 'cli'): { loaded: LoadedConfig; logger: Logger } {
  const loaded = loadConfig(commandEnv());
  ensureStateDir(loaded.paths.home);
  assertStateFolders(loaded.paths);
  return { loaded, logger: fileLogger(loaded.paths.logFile, component, { redact: (line) => redactSecrets(line).text }) };
}

/** The parts for a command, a worker or the MCP server; a running `recall serve` is used unless RECALL_NO_SERVE says no. */
export function createCliRuntime(loaded: LoadedConfig): Runtime {
  return createRuntime(loaded, { useServe: serveAllowed(commandEnv()) });
}

let shared: { runtime: Runtime; logger: Logger } | null = null;

/** `recall serve` keeps one runtime (open table, loaded embedder) for every command it runs. */
export function useSharedRuntime(runtime: Runtime, logger: Logger): void {
  shared = { runtime, logger };
}

export async function withRuntime<T>(fn: (runtime: Runtime, logger: Logger) => Promise<T>): Promise<T> {
  if (shared) return fn(shared.runtime, shared.logger);
  const { loaded, logger } = openState();
  const runtime = createCliRuntime(loaded);
  try {
    return await fn(runtime, logger);
  } finally {
    await runtime.close();
  }
}

/** `--limit` and friends: a positive whole number, or a clear error naming the option. */
export function parsePositiveInt(name: string) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isInteger(n) || n <= 0) throw new RecallError('INPUT_INVALID', `${name} must be a positive whole number, got "${value}"`);
    return n;
  };
}
