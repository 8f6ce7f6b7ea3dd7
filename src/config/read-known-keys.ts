/**
 * Config values checked against the key table without the zod schema, for the hooks: plain code,
 * never throws. A value the schema would refuse is reported in `problems` and its default used (a
 * hook must answer); a number above its bound is lowered to the bound.
 */
import { isObject } from '../core/is-object.js';
import { describeAllowed } from './describe-allowed.js';
import type { KeySpec, TableKey } from './key-table.js';
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
  const refused: Checked = { ok: false, want: describeAllowed(spec) };
  switch (spec.kind) {
    case 'boolean':
      return typeof raw === 'boolean' ? { ok: true, value: raw } : refused;
    case 'int':
    case 'number': {
      // As the schema's coercion reads a number.
      const n = Number(raw);
      const valid = spec.kind === 'int' ? Number.isInteger(n) : Number.isFinite(n);
      if (!valid || (spec.min !== undefined && n < spec.min)) return refused;
      if (spec.max !== undefined && n > spec.max) return { ok: 'lowered', value: spec.max, why: spec.maxMessage ?? `at most ${spec.max}` };
      return { ok: true, value: n };
    }
    case 'string': {
      if (typeof raw !== 'string' || (spec.minLength !== undefined && raw.length < spec.minLength)) return refused;
      if (spec.pattern && !spec.pattern.test(raw)) return refused;
      if (spec.format !== 'ollama-host') return { ok: true, value: raw };
      try {
        return { ok: true, value: normalizeOllamaHost(raw) };
      } catch {
        return refused;
      }
    }
    case 'list': {
      const min = spec.itemMinLength ?? 0;
      const valid = Array.isArray(raw) && raw.every((item) => typeof item === 'string' && item.length >= min);
      return valid ? { ok: true, value: [...(raw as string[])] } : refused;
    }
    case 'enum':
      return typeof raw === 'string' && spec.choices.includes(raw) ? { ok: true, value: raw } : refused;
  }
}
