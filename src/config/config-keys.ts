/**
 * The configuration keys, derived by walking the zod schema, so `recall config`, `recall doctor`
 * and the README table can never drift from it.
 */
import type { z } from 'zod';
import { RecallError } from '../core/errors.js';
import { ENV_OVERRIDES } from './env-overrides.js';
import { configSchema } from './schema.js';

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

/** Up to `max` keys that look like `name`: same last segment, a few typos away, or containing it. */
export function suggestConfigKeys(name: string, keys: readonly ConfigKey[] = listConfigKeys(), max = 5): string[] {
  const wanted = name.toLowerCase();
  const wantedGroup = wanted.includes('.') ? wanted.slice(0, wanted.lastIndexOf('.')) : null;
  const wantedLast = wanted.slice(wanted.lastIndexOf('.') + 1);
  const scored: Array<{ key: string; score: number }> = [];
  for (const { key } of keys) {
    const lower = key.toLowerCase();
    const group = lower.slice(0, Math.max(0, lower.lastIndexOf('.')));
    const last = lower.slice(lower.lastIndexOf('.') + 1);
    // A group given must be about right; then the share of the last segment's characters that differ.
    if (wantedGroup !== null && editDistance(wantedGroup, group) > 2) continue;
    const score = relativeDistance(wantedLast, last);
    if (score <= 0.5) scored.push({ key, score });
    else if (wantedLast.length >= 3 && last.includes(wantedLast)) scored.push({ key, score: 1 });
  }
  return scored
    .sort((a, b) => a.score - b.score || a.key.localeCompare(b.key))
    .slice(0, max)
    .map((s) => s.key);
}

function relativeDistance(a: string, b: string): number {
  return editDistance(a, b) / Math.max(a.length, b.length, 1);
}

/** Edits (insert, delete, substitute, swap two neighbours) that turn `a` into `b`. */
function editDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i += 1) {
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = best;
    }
  }
  return rows[a.length]![b.length]!;
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
