/**
 * How much a hybrid search trusts its vector side, by what makes the vectors. Pure.
 *
 * A semantic model (transformers, Ollama) sees meaning the text side cannot (other words for the same
 * thing), so the two sides weigh the same. The hash embedder is lexical: it sees the same words as
 * BM25, without BM25's weighting of rare words over common ones and without stemming, so it mostly
 * repeats the text side less well; its word pieces (trigrams) still help with typos and word forms,
 * so it keeps a smaller say.
 */
export const SEMANTIC_VECTOR_WEIGHT = 0.5;
export const LEXICAL_VECTOR_WEIGHT = 0.3;

export function vectorWeightFor(embedderId: string): number {
  return embedderId.startsWith('hash:') || embedderId === 'hash' ? LEXICAL_VECTOR_WEIGHT : SEMANTIC_VECTOR_WEIGHT;
}
