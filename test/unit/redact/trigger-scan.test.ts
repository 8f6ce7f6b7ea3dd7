import { describe, expect, it } from 'vitest';
import { compileLiterals, findLiterals } from '../../../src/redact/literal-automaton.js';
import { findTriggers } from '../../../src/redact/trigger-scan.js';

const hitsOf = (text: string): string[] => {
  const hits = findTriggers(text, { blocks: false });
  const out: string[] = [];
  for (let i = 0; i < hits.length; i += 2) out.push(text.slice(hits[i], hits[i + 1]));
  return out;
};

const blocksIn = (text: string): boolean => {
  const markers = { blocks: false };
  findTriggers(text, markers);
  return markers.blocks;
};

describe('the literal automaton', () => {
  it('finds exactly the literals a text holds, overlapping or nested, as includes would', () => {
    const literals = ['he', 'she', 'his', 'hers', 'xoxb-', 'xoxe.xoxb-', 'a', 'aa', 'aaa'];
    const automaton = compileLiterals(literals);
    const alphabet = 'ahersixo.b-X';
    let seed = 7;
    const next = (): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    for (let round = 0; round < 300; round += 1) {
      let text = '';
      for (let k = next() % 40; k > 0; k -= 1) text += alphabet[next() % alphabet.length];
      const expected = literals.flatMap((l, i) => (text.toLowerCase().includes(l) ? [i] : []));
      expect([...findLiterals(automaton, text, new Set())].sort((a, b) => a - b), text).toEqual(expected);
    }
  });

  it('folds case only when asked', () => {
    expect([...findLiterals(compileLiterals(['akia']), 'AKIA1234', new Set())]).toEqual([0]);
    expect([...findLiterals(compileLiterals(['akia'], false), 'AKIA1234', new Set())]).toEqual([]);
    expect([...findLiterals(compileLiterals(['AKIA'], false), 'AKIA1234', new Set())]).toEqual([0]);
  });
});

describe('the trigger scan', () => {
  it('finds secret words in any case, without a lower-cased copy of the text', () => {
    expect(hitsOf('the TOKEN is here')).toEqual(['TOKEN']);
    expect(hitsOf('Api Key rotated')).toEqual(['Api Key']);
    expect(hitsOf('to\u212Aen')).toEqual(['to\u212Aen']); // the Kelvin sign lower-cases to k
  });

  it('takes a short name part only when a value follows it', () => {
    expect(hitsOf('PW=hunter2')).toEqual(['PW=']);
    expect(hitsOf('"client-key-data": x')).toEqual(['key-data":']);
    expect(hitsOf('the pwned list and a pinned tab')).toEqual([]);
    expect(hitsOf(`key${'a'.repeat(41)}=1`)).toEqual([]);
  });

  it('takes -- only before a flag naming a secret part', () => {
    expect(hitsOf('app --db-session-cookie X')).toEqual(['--']);
    expect(hitsOf('npm test -- 3 --verbose')).toEqual([]);
  });

  it('takes a colon only as a URL with a user or a .pgpass line', () => {
    expect(hitsOf('postgres://app:hunter2@db/x')).toEqual(['://app:hunter2@']);
    expect(hitsOf('db.internal:5432:shop:app:pw')).toEqual([':5432:shop:app:']);
    expect(hitsOf('*:*:*:app:pw')).toEqual([':*:*:app:']);
    expect(hitsOf('2026-01-01T00:00:00Z INFO served https://example.com/a')).toEqual([]);
    expect(hitsOf('x:123456:a:b:')).toEqual([]);
  });

  it('marks a block step only on its own marker', () => {
    expect(blocksIn('a secret and a private key in prose')).toBe(false);
    expect(blocksIn('-----BEGIN RSA PRIVATE KEY-----')).toBe(true);
    expect(blocksIn('kind: "Secret"')).toBe(true);
    expect(blocksIn('<private>x</private>')).toBe(true);
    expect(blocksIn('PuTTY-User-Key-File-3: ssh-ed25519')).toBe(true);
  });
});
