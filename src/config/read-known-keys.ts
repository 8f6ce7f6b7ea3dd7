/**
 * Config values checked against the key table without the zod schema, for the hooks: plain code,
 * never throws. A value the schema would refuse is reported in `problems` and its default used (a
 * hook must answer); a number above its bound is lowered to the bound.
 */
import { isObject } from '../core/is-object.js';
import type { KeySpec, NumberKeySpec, TableKey } from './key-table.js';
import { normalizeOllamaHost } from './ollama-host.js';

export interface KnownKeysReading {
  /** Each key's value by dotted name: the given one when valid, else its default. */
  values: Map<string, unknown>;
  /** `key: ignored "x" (want ...)`, one per refused value or group. */
  problems: string[];
}

type Checked = { ok: true; value: unknown } | { ok: false; want: string } | { ok: 'lowered'; value: number; why: string };

/** Reads `keys` from config.json's content (environment overrides already laid over it). */
export function readKnownKeys(merged: Record<string, unknown>, keys: readonly TableKey[]): KnownKeysReading {
  const values = new Map<string, unknown>();
  const problems: string[] = [];
  const badGroups = new Set<string>();
  for (const { key, path, spec } of keys) {
    const raw = valueAt(merged, path, (group, value) => {
      if (!badGroups.has(group)) problems.push(`${group}: ignored ${JSON.stringify(value)} (want an object)`);
      badGroups.add(group);
    });
    if (raw === undefined) {
      values.set(key, spec.default);
      continue;
    }
    const checked = checkValue(spec, raw);
    if (checked.ok === true) {
      values.set(key, checked.value);
    } else if (checked.ok === 'lowered') {
      values.set(key, checked.value);
      problems.push(`${key}: ${JSON.stringify(raw)} lowered to ${checked.value} (${checked.why})`);
    } else {
      values.set(key, spec.default);
      problems.push(`${key}: ignored ${JSON.stringify(raw)} (want ${checked.want})`);
    }
  }
  return { values, problems };
}

/** The value at `path`, or undefined; a group that is there but no object is reported once. */
function valueAt(target: Record<string, unknown>, path: readonly string[], badGroup: (group: string, value: unknown) => void): unknown {
  let node: unknown = target;
  for (let i = 0; i < path.length - 1; i += 1) {
    const next = (node as Record<string, unknown>)[path[i]!];
    if (next === undefined) return undefined;
    if (!isObject(next)) {
      badGroup(path.slice(0, i + 1).join('.'), next);
      return undefined;
    }
    node = next;
  }
  return (node as Record<string, unknown>)[path[path.length - 1]!];
}

/** Whether `raw` is a value the schema accepts for `spec`, read as the schema reads it. */
export function checkValue(spec: KeySpec, raw: unknown): Checked {
  switch (spec.kind) {
    case 'boolean':
      return typeof raw === 'boolean' ? { ok: true, value: raw } : { ok: false, want: 'true or false' };
    case 'int':
    case 'number':
      return checkNumber(spec, raw);
    case 'string': {
      if (typeof raw !== 'string') return { ok: false, want: spec.format === 'ollama-host' ? 'a URL' : 'text' };
      if (spec.minLength !== undefined && raw.length < spec.minLength) return { ok: false, want: spec.minLength === 1 ? 'non-empty text' : `text of ${spec.minLength} characters or more` };
      if (spec.pattern && !spec.pattern.test(raw)) return { ok: false, want: spec.patternMessage ?? `text matching ${String(spec.pattern)}` };
      if (spec.format !== 'ollama-host') return { ok: true, value: raw };
      try {
        return { ok: true, value: normalizeOllamaHost(raw) };
      } catch {
        return { ok: false, want: 'an http:// or https:// URL' };
      }
    }
    case 'list': {
      const min = spec.itemMinLength ?? 0;
      const valid = Array.isArray(raw) && raw.every((item) => typeof item === 'string' && item.length >= min);
      return valid ? { ok: true, value: [...(raw as string[])] } : { ok: false, want: min > 0 ? 'a list of non-empty strings' : 'a list of strings' };
    }
    case 'enum':
      return typeof raw === 'string' && spec.choices.includes(raw) ? { ok: true, value: raw } : { ok: false, want: `one of ${spec.choices.join(', ')}` };
  }
}

/** Read as the schema's coercion reads a number: `Number(value)`. */
function checkNumber(spec: NumberKeySpec, raw: unknown): Checked {
  const n = Number(raw);
  const whole = spec.kind === 'int';
  const valid = whole ? Number.isInteger(n) : Number.isFinite(n);
  if (!valid || (spec.min !== undefined && n < spec.min)) return { ok: false, want: describeNumber(spec) };
  if (spec.max !== undefined && n > spec.max) return { ok: 'lowered', value: spec.max, why: spec.maxMessage ?? `at most ${spec.max}` };
  return { ok: true, value: n };
}

function describeNumber(spec: NumberKeySpec): string {
  const what = spec.kind === 'int' ? 'a whole number' : 'a number';
  if (spec.min !== undefined && spec.max !== undefined) return `${what} from ${spec.min} to ${spec.max}`;
  return spec.min !== undefined ? `${what} >= ${spec.min}` : what;
}
