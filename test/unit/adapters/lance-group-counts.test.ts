import { LargeUtf8, Utf8, vectorFromArray } from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import { byteColumn, pairHash, tallyRows, type ByteColumn } from '../../../src/adapters/lance-group-counts.js';

const TEXTS = ['global', 'project:café-日本-0000bbbb', '', 'project:ü-0000cccc', 'global'];

/** Row i of a byte column as text. */
function textOf(column: ByteColumn, i: number): string {
  return Buffer.from(column.bytes.subarray(column.offsets[i], column.offsets[i + 1])).toString('utf8');
}

/** The groups of a tally as sorted "namespace|type=count" lines. */
function tally(namespaces: string[], types: string[]): string[] {
  const groups = new Map<number, Array<{ namespace: Uint8Array; type: Uint8Array; count: number }>>();
  tallyRows(groups, byteColumn(vectorFromArray(namespaces, new Utf8()), namespaces.length), byteColumn(vectorFromArray(types, new Utf8()), types.length), namespaces.length);
  const text = (b: Uint8Array) => Buffer.from(b).toString('utf8');
  return [...groups.values()].flat().map((g) => `${text(g.namespace)}|${text(g.type)}=${g.count}`).sort();
}

describe('byteColumn', () => {
  it('hands over a plain Utf8 column\'s own buffers', () => {
    const column = vectorFromArray(TEXTS, new Utf8());
    const bytes = byteColumn(column, TEXTS.length);
    expect(bytes.bytes).toBe(column.data[0]!.values);
    expect(TEXTS.map((_, i) => textOf(bytes, i))).toEqual(TEXTS);
  });

  it('encodes the columns it cannot read in place the same way: sliced, large, with nulls', () => {
    const sliced = vectorFromArray(['skipped', ...TEXTS], new Utf8()).slice(1);
    expect(sliced.data[0]?.offset).toBe(1);
    const large = vectorFromArray(TEXTS, new LargeUtf8());
    for (const column of [sliced, large]) {
      const bytes = byteColumn(column, TEXTS.length);
      expect(TEXTS.map((_, i) => textOf(bytes, i))).toEqual(TEXTS);
    }
    const withNull = byteColumn(vectorFromArray(['a', null, 'é'], new Utf8()), 3);
    expect([0, 1, 2].map((i) => textOf(withNull, i))).toEqual(['a', 'null', 'é']);
  });

  it('refuses a missing column', () => {
    expect(() => byteColumn(null, 0)).toThrow(/missing/);
  });
});

describe('tallyRows', () => {
  it('counts each namespace and type pair once per row, non-ASCII text included', () => {
    expect(tally(['global', 'project:café-日本-0000bbbb', 'global', 'global', 'project:café-日本-0000bbbb'], ['rule', 'fact', 'rule', 'fact', 'fact']))
      .toEqual(['global|fact=1', 'global|rule=2', 'project:café-日本-0000bbbb|fact=2']);
  });

  it('keeps apart pairs whose bytes run together the same way', () => {
    expect(tally(['ab', 'a', 'ab'], ['c', 'bc', 'c'])).toEqual(['ab|c=2', 'a|bc=1']);
  });

  it('keeps apart values whose hashes collide', () => {
    const [one, other] = collidingNamespaces();
    expect(one).not.toBe(other);
    expect(tally([one, other, one], ['rule', 'rule', 'rule'])).toEqual([`${one}|rule=2`, `${other}|rule=1`].sort());
  });
});

/** Two namespaces whose (namespace, "rule") pairs hash alike: a birthday search over 32-bit hashes. */
function collidingNamespaces(): [string, string] {
  const type = Buffer.from('rule');
  const seen = new Map<number, string>();
  for (let i = 0; ; i += 1) {
    const ns = `project:p${i}`;
    const bytes = Buffer.from(ns);
    const h = pairHash(bytes, 0, bytes.length, type, 0, type.length);
    const earlier = seen.get(h);
    if (earlier !== undefined) return [earlier, ns];
    seen.set(h, ns);
  }
}
