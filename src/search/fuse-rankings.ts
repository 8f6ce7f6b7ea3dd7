/**
 * Fuses a vector ranking and a full-text (BM25) ranking of the same memories into one ranking with a
 * score in [0, 1]. Pure.
 *
 * Two methods:
 * - `relative` (default): a weighted sum of the two scores, each brought to [0, 1] first. The vector
 *   part is the cosine similarity clamped at 0 (absolute: 0.6 means the same thing for every query).
 *   The text part is the BM25 score divided by the best BM25 score of the query (BM25 has no upper
 *   bound and its scale moves with the corpus), so the best text match gets 1 and a memory the text
 *   search did not find gets 0. With equal weights, a fused 1.0 means "identical in meaning and the
 *   best text match"; a memory found by only one side scores at most 0.5.
 * - `rrf`, reciprocal rank fusion: sum of weight / (k + rank) over the lists, divided by the value a
 *   memory ranked first in every list would get, so it also lands in [0, 1]. It looks only at ranks.
 */

export type FusionMethod = 'relative' | 'rrf';

export interface VectorRanked {
  id: string;
  /** Cosine similarity in [-1, 1]. */
  similarity: number;
}

export interface TextRanked {
  id: string;
  /** BM25 score, > 0. */
  score: number;
}

export interface FusionOptions {
  method?: FusionMethod;
  /** Weight of the vector side; the text side gets 1 - vectorWeight. Default 0.5. */
  vectorWeight?: number;
  /** RRF's rank offset; default 60, the usual choice. */
  k?: number;
}

export interface FusedScore {
  id: string;
  /** The fused score in [0, 1]. */
  score: number;
  /** Cosine similarity clamped to [0, 1], or null when the vector search did not return it. */
  vectorScore: number | null;
  /** BM25 divided by the query's best BM25, or null when the text search did not return it. */
  textScore: number | null;
}

/** A cosine similarity as a [0, 1] score: opposite or unrelated directions count as 0. */
export function vectorScoreOf(similarity: number): number {
  return Number.isFinite(similarity) ? Math.min(1, Math.max(0, similarity)) : 0;
}

/** BM25 scores relative to the best one: the top text match gets 1. */
export function relativeTextScores(hits: readonly TextRanked[]): Map<string, number> {
  const best = Math.max(0, ...hits.map((h) => (Number.isFinite(h.score) ? h.score : 0)));
  const scores = new Map<string, number>();
  for (const hit of hits) {
    const value = best > 0 && Number.isFinite(hit.score) ? Math.max(0, hit.score) / best : 0;
    if (!scores.has(hit.id)) scores.set(hit.id, value);
  }
  return scores;
}

/**
 * One entry per memory found by either side, best first; ties keep the vector list's order, then the
 * text list's. Both inputs must be sorted best first (their order is the rank).
 */
export function fuseRankings(vector: readonly VectorRanked[], text: readonly TextRanked[], options: FusionOptions = {}): FusedScore[] {
  const method = options.method ?? 'relative';
  const wv = clampWeight(options.vectorWeight ?? 0.5);
  const wt = 1 - wv;
  const k = options.k ?? 60;

  const vectorScores = new Map<string, { score: number; rank: number }>();
  vector.forEach((hit, i) => {
    if (!vectorScores.has(hit.id)) vectorScores.set(hit.id, { score: vectorScoreOf(hit.similarity), rank: i + 1 });
  });
  const textRelative = relativeTextScores(text);
  const textRanks = new Map<string, number>();
  text.forEach((hit, i) => {
    if (!textRanks.has(hit.id)) textRanks.set(hit.id, i + 1);
  });

  const order = [...new Set([...vector.map((h) => h.id), ...text.map((h) => h.id)])];
  const best = (wv + wt) / (k + 1);
  const fused = order.map((id, position) => {
    const v = vectorScores.get(id);
    const t = textRelative.get(id);
    const tRank = textRanks.get(id);
    const score =
      method === 'rrf'
        ? ((v ? wv / (k + v.rank) : 0) + (tRank !== undefined ? wt / (k + tRank) : 0)) / best
        : wv * (v?.score ?? 0) + wt * (t ?? 0);
    return { entry: { id, score: round(score), vectorScore: v ? v.score : null, textScore: t ?? null }, position };
  });
  fused.sort((a, b) => b.entry.score - a.entry.score || a.position - b.position);
  return fused.map((f) => f.entry);
}

function clampWeight(weight: number): number {
  if (!Number.isFinite(weight)) return 0.5;
  return Math.min(1, Math.max(0, weight));
}

/** Scores are compared and filtered at 6 decimals, so float noise never decides an order or a cut-off. */
function round(n: number): number {
  return Math.round(n * 1e6) / 1e6;
}
