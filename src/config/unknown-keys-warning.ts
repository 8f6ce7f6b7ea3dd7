/** The CLI's warning about keys in config.json that recall ignores (see unknown-keys.ts). */
import { resolveHome, statePaths } from '../core/state-paths.js';
import { readConfigFile } from './load-config.js';
import { findUnknownKeys, formatUnknownKeysWarning } from './unknown-keys.js';

export { describeUnknownKey, formatUnknownKeysWarning } from './unknown-keys.js';

/** The warning for the config file RECALL_HOME points at; null when it has no unknown keys or cannot be read (the command reports that itself). */
export function unknownKeysWarning(env: NodeJS.ProcessEnv): string | null {
  const { configFile } = statePaths(resolveHome(env));
  try {
    return formatUnknownKeysWarning(configFile, findUnknownKeys(readConfigFile(configFile)));
  } catch {
    return null;
  }
}
