/**
 * The environment's part of the configuration: which variables override which config keys, and the
 * one function that lays them over config.json's content. Plain code and data only: the hooks' fast
 * readers use it too, so the CLI, the doctor and the hooks read the environment alike.
 */
import { listTableKeys } from './key-table.js';

/** Environment variables and the config path they override, from the key table. */
export const ENV_OVERRIDES: ReadonlyArray<readonly [string, readonly string[]]> = listTableKeys().flatMap(({ path, spec }) =>
  spec.env === undefined ? [] : [[spec.env, path] as const],
);

/**
 * config.json's content with every set (non-blank) override laid over it: values trimmed, and
 * true/yes/on and false/no/off read as booleans; everything else stays a string for the schema to
 * coerce or refuse. The input is not changed.
 */
export function applyEnvOverrides(fileRaw: Record<string, unknown>, env: NodeJS.ProcessEnv): Record<string, unknown> {
  const out = structuredClone(fileRaw);
  for (const [name, path] of ENV_OVERRIDES) {
    const value = env[name]?.trim();
    if (value === undefined || value === '') continue;
    setPath(out, path, parseEnvValue(value));
  }
  return out;
}

/** Environment variables that are set (non-empty) and the dotted key each overrides. */
export function activeEnvOverrides(env: NodeJS.ProcessEnv): Map<string, string> {
  const active = new Map<string, string>();
  for (const [name, path] of ENV_OVERRIDES) {
    const value = env[name];
    if (value !== undefined && value.trim() !== '') active.set(path.join('.'), name);
  }
  return active;
}

/** The words the environment may use for a boolean; undefined for anything else. */
export function parseEnvFlag(value: string | undefined): boolean | undefined {
  if (value === undefined) return undefined;
  if (/^\s*(true|yes|on)\s*$/i.test(value)) return true;
  if (/^\s*(false|no|off)\s*$/i.test(value)) return false;
  return undefined;
}

function parseEnvValue(value: string): unknown {
  return parseEnvFlag(value) ?? value;
}

export function setPath(target: Record<string, unknown>, path: readonly string[], value: unknown): void {
  let node = target;
  for (const key of path.slice(0, -1)) {
    const next = node[key];
    if (typeof next !== 'object' || next === null || Array.isArray(next)) node[key] = {};
    node = node[key] as Record<string, unknown>;
  }
  node[path[path.length - 1]!] = value;
}
