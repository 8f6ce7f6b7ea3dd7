/**
 * Hybrid retrieval: a vector search and a BM25 full-text search over the same filters, each fetching a
 * pool of candidates whose size does not depend on the number of results asked for, then the score the
 * other side gives each candidate one side alone found, fused into one ranking (fuse-rankings.ts). A
 * question naming a date also brings the memories of that date and ranks them up. `vector` and `text`
 * modes run one side only, for comparison and for stores whose embedder is not the configured one.
 */
import type { MemoryRecord } from '../core/memory.js';
import type { Embedder, MemoryFilters, MemoryStore } from '../core/ports.js';
import { fuseRankings, relativeTextScores, round, vectorScoreOf } from './fuse-rankings.js';
import type { FusionOptions } from './fuse-rankings.js';
import { vectorWeightFor } from './fusion-weights.js';
import { parseQuestionDate, type DateSpan } from './question-dates.js';
import { searchTextSide, searchVectorSide } from './search-sides.js';

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

/**
 * Candidates each side fetches, whatever the limit (more only for a limit above it): `--limit 50`
 * ranks the same first ten as `--limit 10`.
 */
export const CANDIDATE_POOL = 50;

type Scored = Omit<SearchHit, 'record'> & { id: string };

/** What the sides of a hybrid search brought, and the pool each fetched. */
interface Sides {
  vector: Awaited<ReturnType<typeof searchVectorSide>>;
  text: Awaited<ReturnType<typeof searchTextSide>> | null;
  dated: readonly MemoryRecord[];
  pool: number;
  /** Whether the question names a date (its memories are ranked up after fusion). */
  dateNamed: boolean;
}

export async function searchMemories(request: SearchRequest, deps: SearchDeps): Promise<SearchHit[]> {
  const { store } = deps;
  const options = { ...request.filters, limit: Math.max(CANDIDATE_POOL, request.limit) };
  const date = request.mode === 'hybrid' ? parseQuestionDate(request.query) : null;
  const [vector, text, dated] = await Promise.all([
    request.mode !== 'text' ? searchVectorSide(request.query, options, deps) : Promise.resolve(null),
    request.mode !== 'vector' ? searchTextSide(request.query, options, store) : Promise.resolve(null),
    date !== null ? store.list({ ...options, ...spanFilters(date, request.filters) }) : Promise.resolve([]),
  ]);
  const records = new Map<string, MemoryRecord>([...(text?.hits ?? []).map((t) => [t.record.id, t.record] as const), ...dated.map((r) => [r.id, r] as const)]);

  let scored: Scored[];
  if (request.mode === 'vector') {
    scored = (vector?.matches ?? []).map((n) => ({ id: n.id, score: vectorScoreOf(n.similarity), vectorScore: vectorScoreOf(n.similarity), textScore: null }));
  } else if (request.mode === 'text') {
    const hits = text?.hits.map((t) => ({ id: t.record.id, score: t.score })) ?? [];
    const relative = relativeTextScores(hits);
    scored = hits.map((t) => ({ id: t.id, score: relative.get(t.id) ?? 0, vectorScore: null, textScore: relative.get(t.id) ?? 0 }));
  } else {
    const fused = await fuseCandidates(request, store, { vector, text, dated, pool: options.limit, dateNamed: date !== null });
    scored = date === null ? fused : await rankDate(fused, date, records, store);
  }

  const shown = scored.filter((s) => s.score > 0 && s.score >= request.minScore).slice(0, request.limit);
  // Rows the text side or the date brought are at hand; the others are read now. One deleted since the search is left out.
  const unread = shown.filter((s) => !records.has(s.id)).map((s) => s.id);
  if (unread.length > 0) for (const record of await store.getMany(unread)) records.set(record.id, record);
  return shown.flatMap(({ id, ...rest }) => {
    const record = records.get(id);
    return record === undefined ? [] : [{ record, ...rest }];
  });
}

/**
 * Every candidate of either side (and of the date) with both of its scores, fused. The similarity of a
 * candidate the vector side did not bring is read by id (cheap). The BM25 score of one the text side did
 * not bring is 0 when that side came back short of its pool (it found every memory with any of the
 * words); otherwise it is at most the pool's lowest, and it is asked for (a second BM25 query, as dear as
 * the first) only for the candidates it could lift into the results: the results are ranked exactly.
 */
async function fuseCandidates(request: SearchRequest, store: MemoryStore, sides: Sides): Promise<Scored[]> {
  const { vector, text, dated, pool, dateNamed } = sides;
  const similarity = new Map((vector?.matches ?? []).map((m) => [m.id, m.similarity]));
  const bm25 = new Map((text?.hits ?? []).map((h) => [h.record.id, h.score]));
  const ids = [...new Set([...similarity.keys(), ...bm25.keys(), ...dated.map((r) => r.id)])];
  const noVector = ids.filter((id) => !similarity.has(id));
  if (vector !== null && noVector.length > 0) for (const m of await store.vectorScores(vector.vector, noVector)) similarity.set(m.id, m.similarity);
  const weight = vectorWeightFor(vector?.embedder ?? '');
  const fuse = () => fuseRankings(ids.map((id) => ({ id, similarity: similarity.get(id) ?? 0, bm25: bm25.get(id) ?? 0 })), weight, request.fusion);
  const noText = ids.filter((id) => !bm25.has(id));
  if (text === null || text.hits.length < pool || noText.length === 0) return fuse();
  // Ranks (rrf) and a date's reordering move results by more than a score bound tells: ask for them all.
  const liftable = request.fusion?.method === 'rrf' || dateNamed ? noText : couldReachResults(fuse(), new Set(noText), text.hits, request, weight);
  if (liftable.length > 0) for (const t of await store.textScores(text.query, liftable)) bm25.set(t.id, t.score);
  return fuse();
}

/**
 * The candidates without a BM25 score whose fused score, were their BM25 as high as the pool's lowest,
 * would reach the last of the results (scored with 0 for the missing BM25).
 */
function couldReachResults(fused: readonly Scored[], unknown: ReadonlySet<string>, hits: ReadonlyArray<{ score: number }>, request: SearchRequest, weight: number): string[] {
  const scores = hits.map((h) => h.score);
  const best = Math.max(...scores);
  const lowest = Math.min(...scores);
  const wv = Math.min(1, Math.max(0, request.fusion?.vectorWeight ?? weight));
  const lift = best > 0 ? (1 - wv) * (lowest / best) : 0;
  const last = fused[Math.min(request.limit, fused.length) - 1]?.score ?? 0;
  return fused.filter((f) => unknown.has(f.id) && f.score + lift >= last).map((f) => f.id);
}

/** A question naming a date: the memories of that date first, each half its fused score and half the date's. */
async function rankDate(fused: Scored[], date: DateSpan, records: Map<string, MemoryRecord>, store: MemoryStore): Promise<Scored[]> {
  const unread = fused.filter((s) => !records.has(s.id)).map((s) => s.id);
  if (unread.length > 0) for (const record of await store.getMany(unread)) records.set(record.id, record);
  const within = (id: string) => {
    const at = Date.parse(records.get(id)?.createdAt ?? '');
    return at >= date.start.getTime() && at < date.end.getTime();
  };
  return fused
    .map((s, position) => ({ entry: { ...s, score: round((s.score + (within(s.id) ? 1 : 0)) / 2) }, position }))
    .sort((a, b) => b.entry.score - a.entry.score || a.position - b.position)
    .map((e) => e.entry);
}

/** The filters of the date's span, inside the caller's own --since. */
function spanFilters(date: DateSpan, filters: MemoryFilters): Pick<MemoryFilters, 'since'> & { olderThan: { createdAt: string; id: string } } {
  const since = filters.since !== undefined && filters.since > date.start ? filters.since : date.start;
  return { since, olderThan: { createdAt: date.end.toISOString(), id: '' } };
}
