/**
 * Redacts every string inside a JSON-like value (a tool's input or output, a model's observation),
 * keeping its shape: objects keep their keys, arrays their order. Pure; returns the value itself when
 * nothing in it changed.
 */
import { redactSecrets } from './redact-secrets.js';

export function redactValue<T>(value: T): T {
  return walk(value, 0) as T;
}

/** Deeper than this, a value is left as it is (tool outputs are shallow; this only bounds the recursion). */
const MAX_DEPTH = 64;

function walk(value: unknown, depth: number): unknown {
  if (typeof value === 'string') return value === '' ? value : redactSecrets(value).text;
  if (depth >= MAX_DEPTH || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    let changed = false;
    const out = value.map((item) => {
      const next = walk(item, depth + 1);
      if (next !== item) changed = true;
      return next;
    });
    return changed ? out : value;
  }
  let changed = false;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
    const next = walk(item, depth + 1);
    if (next !== item) changed = true;
    out[key] = next;
  }
  return changed ? out : value;
}
