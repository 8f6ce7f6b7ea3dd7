import { describe, expect, it } from 'vitest';
import { fuseRankings, relativeTextScores, vectorScoreOf } from '../../../src/search/fuse-rankings.js';

describe('fuseRankings', () => {
  it('ranks a memory by both of its scores: one the text side found alone keeps the similarity the vector side gives it', () => {
    // 'text-only' was outside the vector side's pool, but its similarity was fetched: it is not scored as 0.
    const fused = fuseRankings(
      [
        { id: 'vector-only', similarity: 0.5, bm25: 0 },
        { id: 'text-only', similarity: 0.45, bm25: 8 },
      ],
      0.5,
    );
    expect(fused.map((f) => f.id)).toEqual(['text-only', 'vector-only']);
    expect(fused[0]).toEqual({ id: 'text-only', score: 0.725, vectorScore: 0.45, textScore: 1 });
  });

  it('scores 1.0 for a memory identical in meaning that is also the best text match', () => {
    const [top] = fuseRankings([{ id: 'x', similarity: 1, bm25: 2.5 }], 0.5);
    expect(top).toEqual({ id: 'x', score: 1, vectorScore: 1, textScore: 1 });
  });

  it('keeps every fused score between 0 and 1, even for negative similarities and odd weights', () => {
    for (const vectorWeight of [0, 0.3, 1, 5, -2, Number.NaN]) {
      const fused = fuseRankings(
        [{ id: 'a', similarity: -0.4, bm25: 0.001 }, { id: 'b', similarity: 1.0000002, bm25: 0 }, { id: 'c', similarity: 0, bm25: 9 }],
        vectorWeight,
      );
      for (const f of fused) {
        expect(f.score).toBeGreaterThanOrEqual(0);
        expect(f.score).toBeLessThanOrEqual(1);
      }
    }
  });

  it('follows the vector weight: all vector ranks by similarity, all text by BM25; an explicit option wins over the default', () => {
    const candidates = [{ id: 'v', similarity: 0.9, bm25: 1 }, { id: 't', similarity: 0.1, bm25: 5 }];
    expect(fuseRankings(candidates, 1).map((f) => f.id)).toEqual(['v', 't']);
    expect(fuseRankings(candidates, 0).map((f) => f.id)).toEqual(['t', 'v']);
    expect(fuseRankings(candidates, 1, { vectorWeight: 0 }).map((f) => f.id)).toEqual(['t', 'v']);
  });

  it('ranks by reciprocal rank with rrf over both complete rankings, normalised so first in both scores 1', () => {
    const fused = fuseRankings(
      [{ id: 'a', similarity: 0.2, bm25: 0.5 }, { id: 'b', similarity: 0.1, bm25: 0 }, { id: 'c', similarity: 0.05, bm25: 0.4 }],
      0.5,
      { method: 'rrf', k: 60 },
    );
    expect(fused[0]).toMatchObject({ id: 'a', score: 1 });
    expect(fused.map((f) => f.id)).toEqual(['a', 'c', 'b']);
    expect(fused[1]!.score).toBeCloseTo(0.5 * (61 / 63) + 0.5 * (61 / 62), 5);
  });

  it('breaks ties by the order of the candidates', () => {
    const fused = fuseRankings([{ id: 'a', similarity: 1, bm25: 0 }, { id: 'b', similarity: 1, bm25: 0 }, { id: 'c', similarity: 0, bm25: 1 }], 0.5);
    expect(fused.map((f) => f.score)).toEqual([0.5, 0.5, 0.5]);
    expect(fused.map((f) => f.id)).toEqual(['a', 'b', 'c']);
  });

  it('returns nothing for no candidates', () => {
    expect(fuseRankings([], 0.5)).toEqual([]);
  });
});

describe('score normalisation', () => {
  it('clamps cosine similarity to [0, 1] and maps NaN to 0', () => {
    expect([vectorScoreOf(-0.3), vectorScoreOf(0.42), vectorScoreOf(1.0001), vectorScoreOf(Number.NaN)]).toEqual([0, 0.42, 1, 0]);
  });

  it('divides BM25 scores by the best one of the query', () => {
    expect(relativeTextScores([{ id: 'a', score: 4 }, { id: 'b', score: 1 }])).toEqual(new Map([['a', 1], ['b', 0.25]]));
    expect(relativeTextScores([])).toEqual(new Map());
  });
});
