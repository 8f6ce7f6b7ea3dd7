/** Every config key with its effective value and where that value came from. Pure. */
import { getPath, listConfigKeys, type ConfigKey } from './config-keys.js';
import { activeEnvOverrides } from './evaluate-config.js';
import { SECRET_KEYS, type Config } from './schema.js';

export type ConfigSource = 'default' | 'file' | 'env';

export interface ConfigEntry {
  key: string;
  value: unknown;
  source: ConfigSource;
  /** The variable that set the value, when `source` is `env`. */
  envVar?: string;
  defaultValue: unknown;
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
      description: key.description ?? '',
    };
  });
}

/** A secret's value is never shown, only whether it is set. */
export function maskSecret(key: string, value: unknown): unknown {
  return SECRET_KEYS.has(key) && typeof value === 'string' && value !== '' ? '(set, hidden)' : value;
}

/** `env RECALL_X`, `file`, or `default`. */
export function describeConfigSource(entry: Pick<ConfigEntry, 'source' | 'envVar'>): string {
  return entry.source === 'env' ? `env ${entry.envVar}` : entry.source;
}
