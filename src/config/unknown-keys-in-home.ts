/**
 * The hooks' check of RECALL_HOME/config.json for keys recall ignores: the same line every command
 * prints on stderr, for the hook's log (a hook never prints it). Node built-ins only; never throws.
 */
import { join } from 'node:path';
import { readConfigJsonLeniently } from './read-config-json.js';
import { findUnknownKeys, formatUnknownKeysWarning } from './unknown-keys.js';

/** The warning line, or null when the file has no unknown keys, is absent or cannot be read. */
export function unknownKeysInHome(home: string): string | null {
  return formatUnknownKeysWarning(join(home, 'config.json'), findUnknownKeys(readConfigJsonLeniently(home, [])));
}
