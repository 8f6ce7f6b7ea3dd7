import { describe, expect, it } from 'vitest';
import { redactSecrets } from '../../../src/redact/redact-secrets.js';
import { leakedCases, readCorpus } from '../../support/redaction-corpus.js';

describe('redaction corpus (test/fixtures/redaction)', () => {
  const { secrets, lookalikes } = readCorpus();

  it('holds at least 120 secrets and evasions and 70 look-alikes', () => {
    expect(secrets.length).toBeGreaterThanOrEqual(120);
    expect(lookalikes.length).toBeGreaterThanOrEqual(70);
  });

  it('removes every secret of at least 98% of the cases', () => {
    const leaked = leakedCases(secrets, (c) => redactSecrets(c.text).text);
    const share = 1 - leaked.length / secrets.length;
    expect(share, leaked.map((c) => `${c.kind}: ${c.text.slice(0, 80)}`).join('\n')).toBeGreaterThanOrEqual(0.98);
  });

  it('leaves at least 98% of the look-alikes untouched', () => {
    const touched = lookalikes.filter((c) => redactSecrets(c.text).text !== c.text);
    expect(touched.length, touched.map((c) => `${c.kind}: ${redactSecrets(c.text).text}`).join('\n')).toBeLessThanOrEqual(Math.floor(lookalikes.length * 0.02));
  });

  it('counts nothing on a look-alike it leaves untouched', () => {
    for (const c of lookalikes) {
      const r = redactSecrets(c.text);
      if (r.text === c.text) expect(r.count).toBe(0);
    }
  });

  it('is idempotent on every case of the corpus', () => {
    for (const c of [...secrets, ...lookalikes]) {
      const once = redactSecrets(c.text).text;
      expect(redactSecrets(once), c.kind).toEqual({ text: once, count: 0 });
    }
  });
});

describe('redaction held-out set (written after tuning, never tuned to)', () => {
  const { secrets, lookalikes } = readCorpus('heldout-');

  it('holds 30 secrets and 20 look-alikes, and its figures are reported as they are', () => {
    expect(secrets).toHaveLength(30);
    expect(lookalikes).toHaveLength(20);
    const leaked = leakedCases(secrets, (c) => redactSecrets(c.text).text);
    const touched = lookalikes.filter((c) => redactSecrets(c.text).text !== c.text);
    if (process.env.RECALL_REDACTION_REPORT === '1') {
      console.log(`held-out: ${secrets.length - leaked.length}/${secrets.length} secrets redacted (leaked: ${leaked.map((c) => c.kind).join(', ') || 'none'}); ` +
        `${touched.length}/${lookalikes.length} look-alikes touched (${touched.map((c) => c.kind).join(', ') || 'none'})`);
    }
    // No target here: a floor only, so a regression far below what was measured shows.
    expect(leaked.length).toBeLessThan(secrets.length);
  });
});
