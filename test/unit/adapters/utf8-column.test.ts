import { LargeUtf8, Utf8, vectorFromArray } from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import { utf8Column } from '../../../src/adapters/lance-search.js';

const TEXTS = ['global', 'project:café-日本-0000bbbb', '', 'project:ü-0000cccc', 'global'];
const latin1 = (text: string) => Buffer.from(text, 'utf8').toString('latin1');

describe('utf8Column', () => {
  it('gives each row the latin1 of its UTF-8 bytes, from the column buffers', () => {
    const column = vectorFromArray(TEXTS, new Utf8());
    const keys = utf8Column(column);
    expect(TEXTS.map((_, i) => keys(i))).toEqual(TEXTS.map(latin1));
  });

  it('gives the same keys for columns it reads through arrow instead: sliced, large, with nulls', () => {
    const sliced = vectorFromArray(['skipped', ...TEXTS], new Utf8()).slice(1);
    expect(sliced.data[0]?.offset).toBe(1);
    const large = vectorFromArray(TEXTS, new LargeUtf8());
    for (const column of [sliced, large]) {
      const keys = utf8Column(column);
      expect(TEXTS.map((_, i) => keys(i))).toEqual(TEXTS.map(latin1));
    }
    const withNull = vectorFromArray(['a', null, 'é'], new Utf8());
    const keys = utf8Column(withNull);
    expect([0, 1, 2].map(keys)).toEqual(['a', 'null', latin1('é')]);
  });

  it('refuses a missing column', () => {
    expect(() => utf8Column(null)).toThrow(/missing/);
  });
});
