/** Every config key with its effective value and where that value came from. Pure. */
import { getPath, listConfigKeys, type ConfigKey } from './config-keys.js';
import { describeAllowed } from './describe-allowed.js';
import { activeEnvOverrides } from './evaluate-config.js';
import { findTableKey } from './key-table.js';
import { SECRET_KEYS, type Config } from './schema.js';

export type ConfigSource = 'default' | 'file' | 'env';

export interface ConfigEntry {
  key: string;
  value: unknown;
  source: ConfigSource;
  /** The variable that set the value, when `source` is `env`. */
  envVar?: string;
  defaultValue: unknown;
  /** What the key accepts, from its bounds in the key table (`a whole number >= 1`). */
  allowed: string;
  description: string;
}

export function listConfigEntries(
  config: Config,
  fileRaw: Record<string, unknown>,
  env: NodeJS.ProcessEnv,
  keys: readonly ConfigKey[] = listConfigKeys(),
): ConfigEntry[] {
  const active = activeEnvOverrides(env);
  return keys.map((key) => {
    const envVar = active.get(key.key);
    const source: ConfigSource = envVar ? 'env' : getPath(fileRaw, key.path) !== undefined ? 'file' : 'default';
    return {
      key: key.key,
      value: maskSecret(key.key, getPath(config, key.path)),
      source,
      ...(envVar ? { envVar } : {}),
      defaultValue: key.defaultValue,
      allowed: allowedFor(key.key),
      description: key.description ?? '',
    };
  });
}

function allowedFor(key: string): string {
  const found = findTableKey(key);
  return found ? describeAllowed(found.spec) : '';
}

/** A secret's value is never shown, only whether it is set. */
export function maskSecret(key: string, value: unknown): unknown {
  return SECRET_KEYS.has(key) && typeof value === 'string' && value !== '' ? '(set, hidden)' : value;
}

/** `env RECALL_X`, `file`, or `default`. */
export function describeConfigSource(entry: Pick<ConfigEntry, 'source' | 'envVar'>): string {
  return entry.source === 'env' ? `env ${entry.envVar}` : entry.source;
}
