/**
 * The one configuration schema, built from the key table (key-table.ts): every key has a default (or
 * is explicitly optional), its bounds and a description.
 */
import { z } from 'zod';
import { CONFIG_KEYS, isKeySpec, listTableKeys, type ConfigValues, type KeyGroup, type KeySpec } from './key-table.js';

export type Config = ConfigValues<typeof CONFIG_KEYS>;

/** The zod schema of one key. */
export function keySchema(spec: KeySpec): z.ZodType {
  return typedSchema(spec).describe(spec.description);
}

function typedSchema(spec: KeySpec): z.ZodType {
  switch (spec.kind) {
    case 'string': {
      let schema = z.string();
      if (spec.minLength !== undefined) schema = schema.min(spec.minLength);
      if (spec.pattern) schema = schema.regex(spec.pattern, spec.patternMessage);
      if (spec.default !== undefined) return schema.default(spec.default);
      return spec.optional ? schema.optional() : schema;
    }
    case 'int':
    case 'number': {
      let schema = spec.kind === 'int' ? z.coerce.number().int() : z.coerce.number();
      if (spec.min !== undefined) schema = schema.min(spec.min, spec.minMessage);
      if (spec.max !== undefined) schema = schema.max(spec.max, spec.maxMessage);
      return schema.default(spec.default);
    }
    case 'boolean':
      return z.boolean().default(spec.default);
    case 'list':
      return z.array(z.string().min(spec.itemMinLength ?? 0)).default([...spec.default]);
    case 'enum':
      return z.enum(spec.choices as [string, ...string[]]).default(spec.default);
  }
}

/** An object schema for a group of the table; absent groups take every default. */
export function groupSchema(group: KeyGroup): z.ZodType {
  const shape: Record<string, z.ZodType> = {};
  for (const [name, node] of Object.entries(group)) shape[name] = isKeySpec(node) ? keySchema(node) : groupSchema(node);
  return z.object(shape).prefault({});
}

export const configSchema = groupSchema(CONFIG_KEYS) as unknown as z.ZodType<Config>;

/** Keys whose values `recall config` and `recall doctor` never print. */
export const SECRET_KEYS: ReadonlySet<string> = new Set(listTableKeys().filter((k) => k.spec.secret === true).map((k) => k.key));
