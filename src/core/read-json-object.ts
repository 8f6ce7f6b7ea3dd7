/**
 * The hook path's one hand-written validator: JSON text to a plain object, and its fields read by
 * type. The hooks' stdin, the queue's job files and Endless Mode's records are checked with it
 * rather than with zod, whose import would cost a hook more start-up time than all of its checks
 * (zod stays at the worker's, the CLI's and the MCP server's boundaries). Pure; no imports but isObject.
 */
import { isObject } from './is-object.js';

export type JsonObjectFailure = 'empty' | 'not_json' | 'not_object';

export type JsonObjectResult = { ok: true; record: Record<string, unknown> } | { ok: false; failure: JsonObjectFailure };

/** The text as a JSON object (not an array, not null, not a scalar), or why it is not one. Never throws. */
export function parseJsonObject(text: string): JsonObjectResult {
  if (text.trim() === '') return { ok: false, failure: 'empty' };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, failure: 'not_json' };
  }
  return isObject(value) ? { ok: true, record: value } : { ok: false, failure: 'not_object' };
}

export type StdinObjectResult = { ok: true; record: Record<string, unknown> } | { ok: false; problem: string };

const STDIN_PROBLEMS: Readonly<Record<JsonObjectFailure, string>> = {
  empty: 'empty stdin',
  not_json: 'stdin is not JSON (or was cut at the size cap)',
  not_object: 'stdin JSON is not an object',
};

/** A hook's stdin payload as a JSON object, or the problem to log. */
export function parseStdinObject(text: string): StdinObjectResult {
  const parsed = parseJsonObject(text);
  return parsed.ok ? parsed : { ok: false, problem: STDIN_PROBLEMS[parsed.failure] };
}

/** The first of `keys` holding a non-blank string (payloads spell fields in snake_case or camelCase). */
export function pickString(record: Record<string, unknown>, ...keys: string[]): string | null {
  for (const key of keys) {
    const field = record[key];
    if (typeof field === 'string' && field.trim() !== '') return field;
  }
  return null;
}

/** A field's required type, or (a number) the exact value it must hold, as a format version. */
export type FieldRule = 'string' | 'number' | 'array' | number;

/** The first field of `rules` that `record` lacks or holds with another type; null when all pass. */
export function firstBadField(record: Record<string, unknown>, rules: Readonly<Record<string, FieldRule>>): string | null {
  for (const [key, rule] of Object.entries(rules)) {
    const value = record[key];
    const passes = typeof rule === 'number' ? value === rule : rule === 'array' ? Array.isArray(value) : typeof value === rule;
    if (!passes) return key;
  }
  return null;
}
