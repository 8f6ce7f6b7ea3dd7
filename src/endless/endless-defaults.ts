/**
 * Endless Mode defaults, read from the configuration key table (config/key-table.ts) so the schema,
 * the hooks' reader and the benches share them. Plain data: the hook loads this file.
 */
import { CONFIG_KEYS } from '../config/key-table.js';

const keys = CONFIG_KEYS.endless;

export const ENDLESS_DEFAULTS = Object.freeze({
  enabled: keys.enabled.default,
  minChars: keys.minChars.default,
  readMinChars: keys.readMinChars.default,
  syncTimeoutMs: keys.syncTimeoutMs.default,
  /** Highest deadline allowed: it must stay below the installed hook timeout (90 s) with room to answer. */
  maxSyncTimeoutMs: keys.syncTimeoutMs.max,
  denylist: Object.freeze([...keys.denylist.default] as string[]),
  keepRecent: keys.keepRecent.default,
  forkMinChars: keys.forkMinChars.default,
});
