/**
 * Fuses the vector and full-text (BM25) scores of the same candidate memories into one ranking with a
 * score in [0, 1]. Pure.
 *
 * Every candidate comes with both of its scores (searchMemories fetches the side that did not find
 * it), so a memory found by one side only is judged on what the other side really thinks of it,
 * rather than as if that side had scored it zero.
 * - `relative` (default): a weighted sum of the two scores, each brought to [0, 1] first. The vector
 *   part is the cosine similarity clamped at 0 (absolute: 0.6 means the same thing for every query).
 *   The text part is the BM25 score divided by the best BM25 score among the candidates (BM25 has no
 *   upper bound and its scale moves with the corpus), so the best text match gets 1.
 * - `rrf`, reciprocal rank fusion: sum of weight / (k + rank) over the two rankings of the candidates,
 *   divided by the value of a memory ranked first by both, so it also lands in [0, 1].
 */

export type FusionMethod = 'relative' | 'rrf';

export interface FusionOptions {
  method?: FusionMethod;
  /** Weight of the vector side; the text side gets 1 - vectorWeight. Default: by the embedder (fusion-weights.ts). */
  vectorWeight?: number;
  /** RRF's rank offset; default 60, the usual choice. */
  k?: number;
}

export interface CandidateScores {
  id: string;
  /** Cosine similarity in [-1, 1]; 0 when the memory has no vector close enough to be read. */
  similarity: number;
  /** BM25 score (>= 0); 0 when no term of the query is in it. */
  bm25: number;
}

export interface FusedScore {
  id: string;
  /** The fused score in [0, 1]. */
  score: number;
  /** Cosine similarity clamped to [0, 1]. */
  vectorScore: number;
  /** BM25 divided by the best BM25 among the candidates, in [0, 1]. */
  textScore: number;
}

/** A cosine similarity as a [0, 1] score: opposite or unrelated directions count as 0. */
export function vectorScoreOf(similarity: number): number {
  return Number.isFinite(similarity) ? Math.min(1, Math.max(0, similarity)) : 0;
}

/** BM25 scores relative to the best one: the top text match gets 1. */
export function relativeTextScores(hits: ReadonlyArray<{ id: string; score: number }>): Map<string, number> {
  const best = Math.max(0, ...hits.map((h) => (Number.isFinite(h.score) ? h.score : 0)));
  const scores = new Map<string, number>();
  for (const hit of hits) {
    const value = best > 0 && Number.isFinite(hit.score) ? Math.max(0, hit.score) / best : 0;
    if (!scores.has(hit.id)) scores.set(hit.id, value);
  }
  return scores;
}

/** One entry per candidate, best first; ties keep the candidates' order. */
export function fuseRankings(candidates: readonly CandidateScores[], vectorWeight: number, options: FusionOptions = {}): FusedScore[] {
  const wv = clampWeight(options.vectorWeight ?? vectorWeight);
  const wt = 1 - wv;
  const k = options.k ?? 60;
  const text = relativeTextScores(candidates.map((c) => ({ id: c.id, score: c.bm25 })));
  const scored = candidates.map((c) => ({ id: c.id, vectorScore: vectorScoreOf(c.similarity), textScore: text.get(c.id) ?? 0 }));
  let fusedOf = (s: (typeof scored)[number]) => wv * s.vectorScore + wt * s.textScore;
  if (options.method === 'rrf') {
    const vectorRank = ranks(scored, (s) => s.vectorScore);
    const textRank = ranks(scored, (s) => s.textScore);
    const best = 1 / (k + 1);
    fusedOf = (s) => ((s.vectorScore > 0 ? wv / (k + (vectorRank.get(s.id) ?? 0)) : 0) + (s.textScore > 0 ? wt / (k + (textRank.get(s.id) ?? 0)) : 0)) / best;
  }
  return scored
    .map((s, position) => ({ entry: { ...s, score: round(fusedOf(s)), vectorScore: round(s.vectorScore), textScore: round(s.textScore) }, position }))
    .sort((a, b) => b.entry.score - a.entry.score || a.position - b.position)
    .map((f) => f.entry);
}

/** 1 for the best by `score`, ties by the given order. */
function ranks<T extends { id: string }>(items: readonly T[], score: (item: T) => number): Map<string, number> {
  const order = items.map((item, position) => ({ item, position })).sort((a, b) => score(b.item) - score(a.item) || a.position - b.position);
  return new Map(order.map(({ item }, i) => [item.id, i + 1]));
}

function clampWeight(weight: number): number {
  if (!Number.isFinite(weight)) return 0.5;
  return Math.min(1, Math.max(0, weight));
}

/** Scores are compared and filtered at 6 decimals, so float noise never decides an order or a cut-off. */
export function round(n: number): number {
  return Math.round(n * 1e6) / 1e6;
}
