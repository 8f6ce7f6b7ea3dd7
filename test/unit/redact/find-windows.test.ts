import { describe, expect, it } from 'vitest';
import { findLongRuns, findWindows } from '../../../src/redact/find-windows.js';
import { redactSecrets, redactWithoutWindows } from '../../../src/redact/redact-secrets.js';
import { readCorpus } from '../../support/redaction-corpus.js';

const windowsOf = (text: string): string[] => {
  const w = findWindows(text);
  const out: string[] = [];
  for (let i = 0; i < w.length; i += 2) out.push(text.slice(w[i], w[i + 1]));
  return out;
};

describe('the prefilter windows', () => {
  it('finds no window in text without a trigger or a random-looking run', () => {
    const code = 'export function handler(req, res) {\n  const total = req.items.reduce((sum, item) => sum + item.cents, 0);\n}\n';
    expect(findWindows(code.repeat(50))).toEqual([]);
  });

  it('takes the line of a trigger and one line either side, not the rest of the text', () => {
    const text = ['line one', 'line two', 'DB_PASSWORD=hunter2', 'line four', 'line five', 'line six'].join('\n');
    expect(windowsOf(text)).toEqual(['line two\nDB_PASSWORD=hunter2\nline four']);
  });

  it('follows the more indented lines under a trigger and the rows under a CSV header', () => {
    const yaml = 'a: 1\nb: 2\npassword: >-\n  first part\n  second part\nnext: 3\nlast: 4';
    expect(windowsOf(yaml)[0]).toContain('second part\nnext: 3');
    const csv = 'x\ny\nUser name,Password,Access key ID\nci,p1,AKIA\nbot,p2,AKIB\ndeploy,p3,AKIC\n\nafter\nmore';
    expect(windowsOf(csv)[0]).toContain('deploy,p3,AKIC');
  });

  it('finds a random-looking run of token characters, not names, paths, digests or UUIDs', () => {
    const found = (s: string): boolean => findLongRuns(` ${s} `).length > 0;
    expect(found('Xk9vQ2mPzL8rT4wY7bN1cD5')).toBe(true);
    expect(found('AKIAQWERTYUIOPASDFG2')).toBe(true);
    expect(found('handleRequestWithRetryAndBackoff')).toBe(false);
    expect(found('/usr/local/lib/node_modules/package')).toBe(false);
    expect(found('96fc72c84f7834e511e8292529b20be1a4c09cb6')).toBe(false);
    expect(found('3f2b8c1e-9d4a-4e7b-8c2d-1a5f6e7d8c9b')).toBe(false);
  });

  it('gives the same redaction as running every rule on the whole text, on every corpus case', () => {
    for (const set of ['', 'heldout-'] as const) {
      const { secrets, lookalikes } = readCorpus(set);
      for (const c of [...secrets, ...lookalikes]) expect(redactSecrets(c.text), c.kind).toEqual(redactWithoutWindows(c.text));
    }
  });

  it('gives the same redaction on corpus cases buried in long unrelated text', () => {
    const filler = 'const total = items.reduce((sum, item) => sum + item.cents, 0);\n'.repeat(40);
    const { secrets } = readCorpus();
    const text = secrets.map((c) => `${filler}${c.text}\n`).join('');
    expect(redactSecrets(text)).toEqual(redactWithoutWindows(text));
  });
});
