/**
 * Keys in config.json that recall ignores (zod drops them silently), said in one line with the closest
 * known key for each: usually a typo that leaves the user's setting without effect.
 */
import { resolveHome, statePaths } from '../core/state-paths.js';
import { suggestConfigKeys } from './config-keys.js';
import { findUnknownKeys } from './evaluate-config.js';
import { readConfigFile } from './load-config.js';

/** `ollama.model (did you mean ollama.llmModel?)`, or the key alone when nothing is close. */
export function describeUnknownKey(key: string): string {
  const [close] = suggestConfigKeys(key);
  return close ? `${key} (did you mean ${close}?)` : key;
}

/** The warning line for a config file's unknown keys, or null when it has none. Pure. */
export function formatUnknownKeysWarning(configFile: string, unknownKeys: readonly string[]): string | null {
  if (unknownKeys.length === 0) return null;
  return `warning: ${configFile} has keys recall ignores: ${unknownKeys.map(describeUnknownKey).join(', ')}`;
}

/** The warning for the config file RECALL_HOME points at; null when it has no unknown keys or cannot be read (the command reports that itself). */
export function unknownKeysWarning(env: NodeJS.ProcessEnv): string | null {
  const { configFile } = statePaths(resolveHome(env));
  try {
    return formatUnknownKeysWarning(configFile, findUnknownKeys(readConfigFile(configFile)));
  } catch {
    return null;
  }
}
