/**
 * Keys in config.json that recall ignores (the schema drops them silently), and the one line that
 * names them with the closest known key for each: usually a typo that leaves a setting without
 * effect. Pure, plain code: the CLI and the hooks both use it.
 */
import { isObject } from '../core/is-object.js';
import { listTableKeys } from './key-table.js';
import { suggestConfigKeys } from './suggest-keys.js';

/** Keys in config.json's content that the key table does not know, in file order. */
export function findUnknownKeys(fileRaw: Record<string, unknown>, keys: ReadonlyArray<{ key: string; path: readonly string[] }> = listTableKeys()): string[] {
  const known = new Set(keys.map((k) => k.key));
  const groups = new Set(keys.flatMap((k) => k.path.slice(0, -1).map((_, i) => k.path.slice(0, i + 1).join('.'))));
  const unknown: string[] = [];
  const visit = (node: Record<string, unknown>, prefix: string): void => {
    for (const [name, value] of Object.entries(node)) {
      const key = prefix ? `${prefix}.${name}` : name;
      if (known.has(key)) continue;
      if (groups.has(key) && isObject(value)) {
        visit(value, key);
      } else if (!groups.has(key)) unknown.push(key);
    }
  };
  visit(fileRaw, '');
  return unknown;
}

/** `ollama.model (did you mean ollama.llmModel?)`, or the key alone when nothing is close. */
export function describeUnknownKey(key: string): string {
  const [close] = suggestConfigKeys(key);
  return close ? `${key} (did you mean ${close}?)` : key;
}

/** The warning line for a config file's unknown keys, or null when it has none. */
export function formatUnknownKeysWarning(configFile: string, unknownKeys: readonly string[]): string | null {
  if (unknownKeys.length === 0) return null;
  return `warning: ${configFile} has keys recall ignores: ${unknownKeys.map(describeUnknownKey).join(', ')}`;
}
