import { describe, expect, it } from 'vitest';
import { createHashEmbedder, hashEmbed } from '../../../src/embed/hash-embedder.js';
import { isRecallError } from '../../../src/core/errors.js';

function norm(vector: Float32Array): number {
  return Math.sqrt(vector.reduce((sum, value) => sum + value * value, 0));
}

function cosine(a: Float32Array, b: Float32Array): number {
  return a.reduce((sum, value, i) => sum + value * (b[i] ?? 0), 0);
}

describe('createHashEmbedder', () => {
  it('names itself after its dimension', () => {
    expect(createHashEmbedder().id).toBe('hash:384');
    expect(createHashEmbedder(64).id).toBe('hash:64');
  });

  it('gives the same vector for the same text every time', async () => {
    const embedder = createHashEmbedder();
    const [a, b] = await embedder.embed(['Use pnpm, not npm, in this repo', 'Use pnpm, not npm, in this repo']);
    expect(Array.from(a ?? [])).toEqual(Array.from(b ?? []));
    expect(Array.from(hashEmbed('Use pnpm', 384))).toEqual(Array.from(hashEmbed('Use pnpm', 384)));
  });

  it('returns unit-length vectors of the configured dimension', async () => {
    const vectors = await createHashEmbedder(128).embed(['Run the linter before committing', 'x', 'Ünïcödé wörds 123']);
    for (const vector of vectors) {
      expect(vector).toHaveLength(128);
      expect(norm(vector)).toBeCloseTo(1, 5);
    }
  });

  it('puts texts that share words closer than unrelated texts', async () => {
    const [query, similar, unrelated] = await createHashEmbedder().embed([
      'always run the tests with vitest before committing',
      'run vitest tests before every commit',
      'my dog likes sunny weather in the city',
    ]);
    if (!query || !similar || !unrelated) throw new Error('expected three vectors');
    expect(cosine(query, similar)).toBeGreaterThan(cosine(query, unrelated) + 0.2);
  });

  it('returns a zero vector, never NaN, for text without words', async () => {
    const vectors = await createHashEmbedder(32).embed(['', '   ', '?!.,']);
    for (const vector of vectors) {
      expect(vector).toHaveLength(32);
      expect(vector.every((value) => value === 0)).toBe(true);
    }
  });

  it('returns one vector per text and nothing for no texts', async () => {
    const embedder = createHashEmbedder(16);
    expect(await embedder.embed([])).toEqual([]);
    expect(await embedder.embed(['a', 'b', 'c'])).toHaveLength(3);
  });

  it('rejects a dimension that is not a positive integer', () => {
    for (const dim of [0, -1, 1.5, Number.NaN, 1_000_000]) {
      let caught: unknown;
      try {
        createHashEmbedder(dim);
      } catch (err) {
        caught = err;
      }
      expect(isRecallError(caught, 'CONFIG_INVALID')).toBe(true);
    }
  });
});
