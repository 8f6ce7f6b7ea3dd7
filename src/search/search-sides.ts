/**
 * The two sides of a search, each fetching a pool of candidates: the vector side (the query's vector
 * against the memories') and the text side (BM25 over the query's words, stop words and speaker names
 * left out).
 */
import { RecallError } from '../core/errors.js';
import type { Embedder, MemoryStore, ListOptions, TextHit, VectorMatch } from '../core/ports.js';
import { queryTerms, withoutSpeakers } from './text-query.js';

export interface VectorSide {
  /** The embedder the vectors come from. */
  embedder: string;
  vector: Float32Array;
  matches: VectorMatch[];
}

export interface TextSide {
  /** What was searched for. */
  query: string;
  hits: TextHit[];
}

/** Null for an empty store (the embedder is not even loaded) or a store all of whose memories were forgotten. */
export async function searchVectorSide(
  query: string,
  options: ListOptions,
  deps: { store: MemoryStore; embedder: () => Promise<Embedder> },
): Promise<VectorSide | null> {
  const info = await deps.store.embedderInfo();
  if (info === null) return null;
  const embedder = await deps.embedder();
  if (embedder.id !== info.embedder) {
    // Every memory forgotten: an empty table's old embedder is no reason to fail.
    if ((await deps.store.count()) === 0) return null;
    throw new RecallError(
      'EMBEDDER_MISMATCH',
      `the store was embedded with ${info.embedder} but the configured embedder is ${embedder.id}; ` +
        `run \`recall reindex\`, set RECALL_EMBEDDER=${info.embedder}, or search with --mode text`,
    );
  }
  const [vector] = await embedder.embed([query]);
  if (vector === undefined) throw new RecallError('EMBEDDER_UNAVAILABLE', `embedder ${embedder.id} returned no vector for the query`);
  return { embedder: embedder.id, vector, matches: await deps.store.search(vector, options) };
}

/**
 * BM25 over the query's words without stop words. When some of those words are the speaker names
 * that open the memories found ("Maria: ..."), the search runs again without them: a name every line
 * of a speaker opens with says nothing about which of those lines answers.
 */
export async function searchTextSide(query: string, options: ListOptions, store: MemoryStore): Promise<TextSide> {
  const terms = queryTerms(query);
  const first = terms.join(' ');
  const hits = await store.textSearch(first, options);
  const kept = withoutSpeakers(terms, hits.map((h) => h.record.content));
  if (kept === null) return { query: first, hits };
  const again = kept.join(' ');
  return { query: again, hits: await store.textSearch(again, options) };
}
