/** What a key accepts, in words, from its entry in the key table: for the README and the hooks' log. Pure. */
import type { KeySpec } from './key-table.js';

/** `a whole number >= 1`, `a number from 0 to 1`, `true or false`, ... */
export function describeAllowed(spec: KeySpec): string {
  switch (spec.kind) {
    case 'boolean':
      return 'true or false';
    case 'int':
    case 'number': {
      const what = spec.kind === 'int' ? 'a whole number' : 'a number';
      if (spec.min !== undefined && spec.max !== undefined) return `${what} from ${spec.min} to ${spec.max}`;
      if (spec.min !== undefined) return `${what} >= ${spec.min}`;
      return spec.max !== undefined ? `${what} <= ${spec.max}` : what;
    }
    case 'string':
      if (spec.format === 'ollama-host') return 'an http:// or https:// URL, or host[:port]';
      if (spec.pattern) return spec.patternMessage?.replace(/^must be /, '') ?? `text matching ${String(spec.pattern)}`;
      if (spec.minLength === 1) return 'non-empty text';
      return spec.minLength ? `text of ${spec.minLength} characters or more` : 'text';
    case 'list':
      return spec.itemMinLength ? 'a list of non-empty strings' : 'a list of strings';
    case 'enum':
      return `one of ${spec.choices.join(', ')}`;
  }
}
