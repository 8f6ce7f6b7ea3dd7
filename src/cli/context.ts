/** The command-line program's way into the composition root (src/app/), with the command's environment. */
import * as app from '../app/open-state.js';
import type { Runtime } from '../app/runtime.js';
import type { LoadedConfig } from '../config/load-config.js';
import { RecallError } from '../core/errors.js';
import type { Logger } from '../core/log.js';
import { commandEnv } from './terminal.js';

export function openState(component = 'cli'): { loaded: LoadedConfig; logger: Logger } {
  return app.openState(commandEnv(), component);
}

export function createCliRuntime(loaded: LoadedConfig): Runtime {
  return app.runtimeFor(loaded, commandEnv());
}

export function withRuntime<T>(fn: (runtime: Runtime, logger: Logger) => Promise<T>): Promise<T> {
  return app.withRuntime(commandEnv(), fn);
}

/** `--limit` and friends: a positive whole number, or a clear error naming the option. */
export function parsePositiveInt(name: string) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isInteger(n) || n <= 0) throw new RecallError('INPUT_INVALID', `${name} must be a positive whole number, got "${value}"`);
    return n;
  };
}
