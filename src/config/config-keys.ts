/**
 * The configuration keys as the zod schema sees them (read by walking it), for `recall config` and
 * `recall doctor`; the schema itself is built from the key table (key-table.ts).
 */
import type { z } from 'zod';
import { RecallError } from '../core/errors.js';
import { ENV_OVERRIDES } from './env-overrides.js';
import { configSchema } from './schema.js';
import { suggestConfigKeys } from './suggest-keys.js';

export { suggestConfigKeys };

export type ConfigValueKind = 'string' | 'number' | 'boolean' | 'enum' | 'list' | 'json';

export interface ConfigKey {
  /** Dotted path, e.g. `ollama.llmModel`. */
  key: string;
  path: readonly string[];
  kind: ConfigValueKind;
  /** The allowed values of an enum key. */
  choices?: readonly string[];
  optional: boolean;
  hasDefault: boolean;
  defaultValue: unknown;
  /** The `.describe()` text (zod 4 keeps it in the global registry; `.description` reads it). */
  description: string | undefined;
  /** The environment variable that overrides this key, if any. */
  envVar: string | undefined;
}

/** The zod 4 internals the walker reads: `def.type` names the node, wrappers hold `innerType`. */
interface SchemaDef {
  type: string;
  innerType?: z.ZodType;
  defaultValue?: unknown;
  shape?: Record<string, z.ZodType>;
  out?: z.ZodType;
  entries?: Record<string, string | number>;
}

const WRAPPERS = new Set(['default', 'prefault', 'optional', 'nullable', 'readonly', 'catch']);

function defOf(schema: z.ZodType): SchemaDef {
  return (schema as unknown as { def: SchemaDef }).def;
}

/** Every leaf key of the schema, in schema order. */
export function listConfigKeys(schema: z.ZodType = configSchema): ConfigKey[] {
  const keys: ConfigKey[] = [];
  walk(schema, [], keys);
  return keys;
}

function walk(schema: z.ZodType, path: string[], keys: ConfigKey[]): void {
  let node = schema;
  let description: string | undefined;
  let optional = false;
  let hasDefault = false;
  let defaultValue: unknown;
  for (;;) {
    description ??= node.description;
    const def = defOf(node);
    if (WRAPPERS.has(def.type) && def.innerType) {
      if (def.type === 'optional' || def.type === 'nullable') optional = true;
      if ((def.type === 'default' || def.type === 'prefault') && !hasDefault) {
        hasDefault = true;
        defaultValue = def.defaultValue;
      }
      node = def.innerType;
    } else if (def.type === 'pipe' && def.out) {
      node = def.out;
    } else break;
  }
  const def = defOf(node);
  if (def.type === 'object' && def.shape) {
    for (const [name, child] of Object.entries(def.shape)) walk(child, [...path, name], keys);
    return;
  }
  const key = path.join('.');
  keys.push({
    key,
    path,
    ...kindOf(def),
    optional,
    hasDefault,
    defaultValue,
    description,
    envVar: ENV_OVERRIDES.find(([, envPath]) => envPath.join('.') === key)?.[0],
  });
}

function kindOf(def: SchemaDef): { kind: ConfigValueKind; choices?: readonly string[] } {
  switch (def.type) {
    case 'string':
    case 'number':
    case 'boolean':
      return { kind: def.type };
    case 'enum':
      return { kind: 'enum', choices: Object.values(def.entries ?? {}).map(String) };
    case 'array':
      return { kind: 'list' };
    default:
      return { kind: 'json' };
  }
}

/** The key named `name`, or INPUT_INVALID listing the closest keys. */
export function findConfigKey(name: string, keys: readonly ConfigKey[] = listConfigKeys()): ConfigKey {
  const found = keys.find((k) => k.key === name);
  if (found) return found;
  const children = keys.filter((k) => k.key.startsWith(`${name}.`)).map((k) => k.key);
  if (children.length > 0) {
    throw new RecallError('INPUT_INVALID', `"${name}" is a group, not a key; its keys: ${children.join(', ')}`);
  }
  const close = suggestConfigKeys(name, keys);
  const hint = close.length > 0 ? `; did you mean ${close.join(', ')}?` : '';
  throw new RecallError('INPUT_INVALID', `unknown config key "${name}"${hint} (\`recall config list\` shows every key)`);
}

/** The value at a dotted path of a plain object, or undefined. */
export function getPath(target: unknown, path: readonly (string | number | symbol)[]): unknown {
  let node = target;
  for (const segment of path) {
    if (typeof node !== 'object' || node === null || Array.isArray(node)) return undefined;
    node = (node as Record<string | symbol, unknown>)[segment as string | symbol];
  }
  return node;
}
