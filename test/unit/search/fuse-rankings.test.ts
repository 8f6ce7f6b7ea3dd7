import { describe, expect, it } from 'vitest';
import { fuseRankings, relativeTextScores, vectorScoreOf } from '../../../src/search/fuse-rankings.js';

describe('fuseRankings', () => {
  it('puts a memory both sides found above memories only one side found', () => {
    const fused = fuseRankings(
      [{ id: 'a', similarity: 0.9 }, { id: 'both', similarity: 0.6 }],
      [{ id: 'b', score: 4 }, { id: 'both', score: 3 }],
    );
    expect(fused.map((f) => f.id)).toEqual(['both', 'b', 'a']);
  });

  it('scores 1.0 for a memory identical in meaning that is also the best text match', () => {
    const [top] = fuseRankings([{ id: 'x', similarity: 1 }], [{ id: 'x', score: 2.5 }]);
    expect(top).toEqual({ id: 'x', score: 1, vectorScore: 1, textScore: 1 });
  });

  it('gives a memory found by one side at most half the score, and null for the side that missed it', () => {
    const fused = fuseRankings([{ id: 'v', similarity: 1 }], [{ id: 't', score: 7 }]);
    expect(fused).toEqual([
      { id: 'v', score: 0.5, vectorScore: 1, textScore: null },
      { id: 't', score: 0.5, vectorScore: null, textScore: 1 },
    ]);
  });

  it('keeps every fused score between 0 and 1, even for negative similarities and odd weights', () => {
    for (const vectorWeight of [0, 0.3, 1, 5, -2, Number.NaN]) {
      const fused = fuseRankings(
        [{ id: 'a', similarity: -0.4 }, { id: 'b', similarity: 1.0000002 }],
        [{ id: 'a', score: 0.001 }, { id: 'c', score: 9 }],
        { vectorWeight },
      );
      for (const f of fused) {
        expect(f.score).toBeGreaterThanOrEqual(0);
        expect(f.score).toBeLessThanOrEqual(1);
      }
    }
  });

  it('follows the vector weight: all vector ranks by similarity, all text by BM25', () => {
    const vector = [{ id: 'v', similarity: 0.9 }, { id: 't', similarity: 0.1 }];
    const text = [{ id: 't', score: 5 }, { id: 'v', score: 1 }];
    expect(fuseRankings(vector, text, { vectorWeight: 1 }).map((f) => f.id)).toEqual(['v', 't']);
    expect(fuseRankings(vector, text, { vectorWeight: 0 }).map((f) => f.id)).toEqual(['t', 'v']);
  });

  it('ranks by reciprocal rank with rrf, normalised so first in both lists scores 1', () => {
    const fused = fuseRankings(
      [{ id: 'a', similarity: 0.2 }, { id: 'b', similarity: 0.1 }],
      [{ id: 'a', score: 0.5 }, { id: 'c', score: 0.4 }],
      { method: 'rrf', k: 60 },
    );
    expect(fused[0]).toMatchObject({ id: 'a', score: 1 });
    expect(fused.map((f) => f.id)).toEqual(['a', 'b', 'c']);
    expect(fused[1]!.score).toBeCloseTo(0.5 * (61 / 62), 5);
  });

  it('breaks ties by the vector order, then the text order', () => {
    const fused = fuseRankings([{ id: 'a', similarity: 1 }, { id: 'b', similarity: 1 }], [{ id: 'c', score: 1 }], { vectorWeight: 0.5 });
    expect(fused.map((f) => f.score)).toEqual([0.5, 0.5, 0.5]);
    expect(fused.map((f) => f.id)).toEqual(['a', 'b', 'c']);
  });

  it('returns nothing for two empty lists', () => {
    expect(fuseRankings([], [])).toEqual([]);
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
