import { describe, expect, it } from 'vitest';
import { redactSecrets } from '../../../src/redact/redact-secrets.js';
import { FRESH_LOOKALIKES, freshSecrets } from '../../support/fresh-secrets.js';

describe('redaction of each class of secret, with values drawn anew on every run', () => {
  // Several draws: a rule that only works for some random values shows.
  const draws = Array.from({ length: 5 }, () => freshSecrets()).flat();

  it.each(freshSecrets().map((c) => [c.kind, c] as const))('removes the secret of %s', (_kind, c) => {
    const out = redactSecrets(c.text).text;
    for (const s of c.secrets) expect(out, c.text).not.toContain(s);
  });

  it('removes every secret of every case over several draws', () => {
    const leaked = draws.filter((c) => c.secrets.some((s) => redactSecrets(c.text).text.includes(s)));
    expect(leaked.map((c) => `${c.kind}: ${c.text}`)).toEqual([]);
  });

  it('is idempotent on every drawn case', () => {
    for (const c of draws) {
      const once = redactSecrets(c.text).text;
      expect(redactSecrets(once), c.kind).toEqual({ text: once, count: 0 });
    }
  });

  it.each(FRESH_LOOKALIKES.map((c) => [c.kind, c.text] as const))('leaves the look-alike %s untouched', (_kind, text) => {
    expect(redactSecrets(text)).toEqual({ text, count: 0 });
  });
});

describe('SQL password clauses and JSON passwords side by side', () => {
  it('redacts a JSON password after a user key as a JSON value, not as a SQL clause', () => {
    expect(redactSecrets('{"user": "svc", "password": "Tr0ub4dor&3xyz"}').text).toBe('{"user": "svc", "password": "[REDACTED:password]"}');
  });
});
