/**
 * Hybrid retrieval: a vector search and a BM25 full-text search over the same filters, fused into one
 * ranking (see fuse-rankings.ts for the score scale). `vector` and `text` modes run one side only, for
 * comparison and for stores whose embedder is not the configured one.
 */
import { RecallError } from '../core/errors.js';
import type { MemoryRecord } from '../core/memory.js';
import type { Embedder, MemoryFilters, MemoryStore } from '../core/ports.js';
import { fuseRankings, relativeTextScores, vectorScoreOf } from './fuse-rankings.js';
import type { FusionOptions } from './fuse-rankings.js';

export const SEARCH_MODES = ['hybrid', 'vector', 'text'] as const;
export type SearchMode = (typeof SEARCH_MODES)[number];

export function isSearchMode(value: string): value is SearchMode {
  return (SEARCH_MODES as readonly string[]).includes(value);
}

export interface SearchRequest {
  query: string;
  mode: SearchMode;
  filters: MemoryFilters;
  limit: number;
  /** Drop results whose score is below this, in [0, 1]. */
  minScore: number;
  fusion?: FusionOptions;
}

export interface SearchHit {
  record: MemoryRecord;
  /** In [0, 1]: fused (hybrid), clamped cosine (vector) or BM25 relative to the best match (text). */
  score: number;
  vectorScore: number | null;
  textScore: number | null;
}

export interface SearchDeps {
  store: MemoryStore;
  /** Loaded only for the vector side. */
  embedder: () => Promise<Embedder>;
}

/** Each side fetches this many candidates per wanted result, so fusion can promote a memory one side ranks low. */
const CANDIDATES_PER_RESULT = 4;
const MIN_CANDIDATES = 40;

export async function searchMemories(request: SearchRequest, deps: SearchDeps): Promise<SearchHit[]> {
  const { store } = deps;
  const candidates = Math.max(request.limit * CANDIDATES_PER_RESULT, MIN_CANDIDATES);
  const wantVector = request.mode !== 'text';
  const wantText = request.mode !== 'vector';

  // The text side needs nothing from the vector side: both start at once.
  const [neighbors, textHits] = await Promise.all([
    wantVector ? vectorSide(request, deps, candidates) : Promise.resolve([]),
    wantText ? store.textSearch(request.query, { ...request.filters, limit: candidates }) : Promise.resolve([]),
  ]);

  const texts = textHits.map((t) => ({ id: t.record.id, score: t.score }));
  let scored: Array<Omit<SearchHit, 'record'> & { id: string }>;
  if (request.mode === 'hybrid') {
    scored = fuseRankings(neighbors, texts, request.fusion);
  } else if (request.mode === 'vector') {
    scored = neighbors.map((n) => ({ id: n.id, score: vectorScoreOf(n.similarity), vectorScore: vectorScoreOf(n.similarity), textScore: null }));
  } else {
    const relative = relativeTextScores(texts);
    scored = texts.map((t) => {
      const score = relative.get(t.id) ?? 0;
      return { id: t.id, score, vectorScore: null, textScore: score };
    });
  }

  const shown = scored.filter((s) => s.score > 0 && s.score >= request.minScore).slice(0, request.limit);
  // The text side brings its rows; the vector side only ids, so rows it alone found are read now.
  // One deleted since the search is left out.
  const records = new Map(textHits.map((t) => [t.record.id, t.record]));
  const unread = shown.filter((s) => !records.has(s.id)).map((s) => s.id);
  if (unread.length > 0) for (const record of await store.getMany(unread)) records.set(record.id, record);
  return shown.flatMap(({ id, ...rest }) => {
    const record = records.get(id);
    return record === undefined ? [] : [{ record, ...rest }];
  });
}

async function vectorSide(request: SearchRequest, deps: SearchDeps, limit: number) {
  const info = await deps.store.embedderInfo();
  if (info === null) return []; // An empty store: no need to load the embedder.
  const embedder = await deps.embedder();
  if (embedder.id !== info.embedder) {
    // Every memory forgotten: an empty table's old embedder is no reason to fail.
    if ((await deps.store.count()) === 0) return [];
    throw new RecallError(
      'EMBEDDER_MISMATCH',
      `the store was embedded with ${info.embedder} but the configured embedder is ${embedder.id}; ` +
        `run \`recall reindex\`, set RECALL_EMBEDDER=${info.embedder}, or search with --mode text`,
    );
  }
  const [vector] = await embedder.embed([request.query]);
  if (vector === undefined) throw new RecallError('EMBEDDER_UNAVAILABLE', `embedder ${embedder.id} returned no vector for the query`);
  return deps.store.search(vector, { ...request.filters, limit });
}
