/** Reads against the memories table: filtered listing, vector search, BM25 text search, batched scans. */
import type { Table, VectorQuery } from '@lancedb/lancedb';
import type { MemoryRecord } from '../core/memory.js';
import type { GroupCount, Neighbor, StoredMemory, TextHit } from '../core/ports.js';
import { RECORD_COLUMNS, guard, toFloat32, toRecord, toStoredMemory } from './lance-rows.js';
import type { Row } from './lance-rows.js';
import { cosineSimilarity } from '../store/dedupe.js';

/** Newest first (created_at, then id); `limit` <= 0 returns nothing. */
export async function queryRows(t: Table, filter: string | null, limit: number | undefined): Promise<MemoryRecord[]> {
  if (limit !== undefined && limit <= 0) return []; // LanceDB treats limit(0) as "no limit"
  let q = t.query().select(RECORD_COLUMNS);
  if (filter !== null) q = q.where(filter);
  q = q.orderBy([
    { columnName: 'created_at', ascending: false, nullsFirst: false },
    { columnName: 'id', ascending: false, nullsFirst: false },
  ]);
  if (limit !== undefined) q = q.limit(limit);
  const found = await guard('query', () => q.toArray());
  return found.map(toRecord);
}

/**
 * IVF partitions probed per vector search when the table has an IVF-PQ index. A filtered search may go
 * on to more partitions when the filter leaves fewer than `limit` rows in these (a dedupe lookup in a
 * small namespace must still see all of its rows); an unfiltered one stops here, since LanceDB given no
 * upper bound probes every partition (measured at 1M rows: all 121, 5 ms more per search, with the same
 * agreement with an exact search on 200 queries). Ignored without an index.
 */
export const NPROBES = 50;
/**
 * The refine step of a dedupe lookup: the index proposes `limit * REFINE_FACTOR` candidates by their
 * compressed vectors, which are then re-ranked by their full vectors. Ignored without an index.
 */
export const REFINE_FACTOR = 10;
/**
 * The refine step of a search a user reads (`recall search`, `memory_search`, SessionStart context).
 * Reading the candidates' full vectors is most of a search's vector side: at 1M rows, half as many
 * take about 4 ms less, for a top 10 that agrees with an exact search about as often (what it misses
 * comes from the partitions not probed; see the README's benchmarks).
 */
export const SEARCH_REFINE_FACTOR = 5;

/**
 * Cosine similarity search with the filter applied before the search (LanceDB's default prefilter).
 * With a vector index the candidates come from the index and are re-ranked on their full vectors;
 * either way the similarity reported is computed here from the stored vector, so a dedupe decision
 * never rests on a compressed (PQ) distance and is the same with or without the index.
 */
export async function queryNearest(
  t: Table,
  vector: Float32Array,
  filter: string | null,
  limit: number,
  refineFactor = REFINE_FACTOR,
): Promise<Neighbor[]> {
  // A zero vector has no direction: nothing is similar to it (and cosine distance would be NaN).
  if (limit <= 0 || !vector.some((x) => x !== 0)) return [];
  const q = nearestQuery(t, vector, filter, limit, refineFactor);
  const found = await guard('vector search', () => q.toArray());
  return found
    .map((row: Row) => ({ record: toRecord(row), similarity: cosineSimilarity(vector, toFloat32(row.vector)) }))
    .sort((a, b) => b.similarity - a.similarity || a.record.id.localeCompare(b.record.id));
}

/** The query queryNearest runs (exported so a test can read its plan). */
export function nearestQuery(t: Table, vector: Float32Array, filter: string | null, limit: number, refineFactor = REFINE_FACTOR): VectorQuery {
  const q = t
    .vectorSearch(vector)
    .distanceType('cosine')
    .select([...RECORD_COLUMNS, 'vector'])
    .maximumNprobes(filter === null ? NPROBES : 0)
    .minimumNprobes(NPROBES)
    .refineFactor(refineFactor)
    .limit(limit);
  return filter === null ? q : q.where(filter);
}

/** BM25 over `content`; the caller makes sure the index exists. Query text is matched term by term (OR). */
export async function queryText(t: Table, query: string, filter: string | null, limit: number): Promise<TextHit[]> {
  if (limit <= 0 || !/[\p{L}\p{N}]/u.test(query)) return [];
  let q = t.query().fullTextSearch(query, { columns: 'content' }).select([...RECORD_COLUMNS, '_score']).limit(limit);
  if (filter !== null) q = q.where(filter);
  const found = await guard('full-text search', () => q.toArray());
  return found
    .map((row: Row) => ({ record: toRecord(row), score: Number(row._score) }))
    .filter((hit) => Number.isFinite(hit.score) && hit.score > 0)
    .sort((a, b) => b.score - a.score || a.record.id.localeCompare(b.record.id));
}

/** Every matching row with its vector, oldest id first, re-chunked to `batchSize`, from one table version. */
export async function* scanRows(t: Table, filter: string | null, batchSize: number): AsyncGenerator<StoredMemory[]> {
  let q = t.query().select([...RECORD_COLUMNS, 'vector']);
  if (filter !== null) q = q.where(filter);
  q = q.orderBy([{ columnName: 'id', ascending: true, nullsFirst: false }]);
  let pending: StoredMemory[] = [];
  const iterator = q[Symbol.asyncIterator]();
  for (;;) {
    const next = await guard('scan', () => iterator.next());
    if (next.done) break;
    for (const row of next.value.toArray() as Row[]) {
      pending.push(toStoredMemory(row));
      if (pending.length >= batchSize) {
        yield pending;
        pending = [];
      }
    }
  }
  if (pending.length > 0) yield pending;
}

/** Rows per namespace and type, sorted by namespace then type. */
export async function queryGroupCounts(t: Table): Promise<GroupCount[]> {
  const rows = await guard('count groups', () => t.query().select(['namespace', 'type']).toArray());
  const counts = new Map<string, GroupCount>();
  for (const row of rows as Row[]) {
    const key = `${String(row.namespace)}\u0000${String(row.type)}`;
    const entry = counts.get(key) ?? { namespace: String(row.namespace), type: String(row.type), count: 0 };
    entry.count += 1;
    counts.set(key, entry);
  }
  return [...counts.values()].sort((a, b) => a.namespace.localeCompare(b.namespace) || a.type.localeCompare(b.type));
}
