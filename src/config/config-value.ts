/** Turning command-line text into a typed config value and back. Pure. */
import { RecallError } from '../core/errors.js';
import type { ConfigKey } from './config-keys.js';

const TRUE = /^(true|yes|on|1)$/i;
const FALSE = /^(false|no|off|0)$/i;
const NUMBER = /^[+-]?(\d[\d_]*(\.\d*)?|\.\d+)(e[+-]?\d+)?$/i;

/** Parses `text` by the key's schema type; range and format checks are left to the schema. */
export function parseConfigValue(key: ConfigKey, text: string): unknown {
  const value = text.trim();
  switch (key.kind) {
    case 'string':
      return text;
    case 'number': {
      const n = Number(value.replace(/_/g, ''));
      if (!NUMBER.test(value) || !Number.isFinite(n)) throw expected(key, 'a number', text);
      return n;
    }
    case 'boolean':
      if (TRUE.test(value)) return true;
      if (FALSE.test(value)) return false;
      throw expected(key, 'true or false', text);
    case 'enum':
      if (key.choices?.includes(value)) return value;
      throw expected(key, `one of ${(key.choices ?? []).join(', ')}`, text);
    case 'list':
      // `Bash,Read` or a JSON array; an empty text is the empty list.
      if (value.startsWith('[')) return parseJson(key, value, 'a list');
      return value.split(',').map((item) => item.trim()).filter((item) => item !== '');
    case 'json':
      return parseJson(key, value, 'a JSON value');
  }
}

/** A value as the terminal shows it: strings bare, unset as `(not set)`, the rest as JSON. */
export function formatConfigValue(value: unknown): string {
  if (value === undefined) return '(not set)';
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}

function parseJson(key: ConfigKey, text: string, what: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw expected(key, what, text);
  }
}

function expected(key: ConfigKey, what: string, got: string): RecallError {
  return new RecallError('INPUT_INVALID', `${key.key} expects ${what}, got "${got}"`);
}
