/** Reads against the memories table: filtered listing, vector search, BM25 text search, batched scans. */
import type { Table, VectorQuery } from '@lancedb/lancedb';
import type { MemoryRecord } from '../core/memory.js';
import type { Neighbor, StoredMemory, TextHit, TextScore, VectorMatch } from '../core/ports.js';
import { RECORD_COLUMNS, guard, rowsOf, sqlList, toFloat32, toRecord, toStoredMemory } from './lance-rows.js';
import type { Row } from './lance-rows.js';
import { cosineSimilarity } from '../core/cosine-similarity.js';
import { byDistance, byScore, keepPassing, lateFilterFetch, type LateFilter } from './lance-late-filter.js';

/**
 * Rows read whole beside the sort: up to this many, a page is found on its sort keys first and then read
 * by id (see queryRows).
 */
const KEYS_FIRST_MAX_ROWS = 100;

/**
 * Newest first (created_at, then id), or with `oldestFirst` the other way; `limit` <= 0 returns nothing.
 * A page of 2 to KEYS_FIRST_MAX_ROWS rows is found in two steps: its ids, sorting on the two key
 * columns alone (and the filter's), then its rows by id (the BTREE on `id` past 10,000 rows). Sorting
 * every column of every row that passes to keep a few cost 5-10 times as much: the 51 newest of 100k
 * rows took 50-260 ms against 20-30 ms.
 */
export async function queryRows(t: Table, filter: string | null, limit: number | undefined, oldestFirst = false): Promise<MemoryRecord[]> {
  if (limit !== undefined && limit <= 0) return []; // LanceDB treats limit(0) as "no limit"
  const keysFirst = limit !== undefined && limit > 1 && limit <= KEYS_FIRST_MAX_ROWS;
  let q = t.query().select(keysFirst ? ['id', 'created_at'] : RECORD_COLUMNS);
  if (filter !== null) q = q.where(filter);
  q = q.orderBy([
    { columnName: 'created_at', ascending: oldestFirst, nullsFirst: false },
    { columnName: 'id', ascending: oldestFirst, nullsFirst: false },
  ]);
  if (limit !== undefined) q = q.limit(limit);
  const found = rowsOf(await guard('query', () => q.toArrow()));
  if (!keysFirst) return found.map(toRecord);
  const ids = found.map((row) => String(row.id));
  if (ids.length === 0) return [];
  // A row changed between the two reads shows as it is now; one deleted in between is left out.
  const byId = new Map((await readRows(t, `id IN ${sqlList(ids)}`)).map((r) => [r.id, r]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/** Every row matching `filter`, in no particular order (sorting costs a millisecond a search can spare). */
export async function readRows(t: Table, filter: string): Promise<MemoryRecord[]> {
  const found = await guard('query', () => t.query().select(RECORD_COLUMNS).where(filter).toArrow());
  return rowsOf(found).map(toRecord);
}

/** How deep a vector search looks past an IVF index (both are ignored without one). */
export interface Probes {
  /**
   * IVF partitions probed. A filtered search may go on to more partitions when the filter leaves fewer
   * than `limit` rows in these (a dedupe lookup in a small namespace must still see all of its rows);
   * an unfiltered one stops here, since LanceDB given no upper bound probes every partition. So does a
   * filtered one, measured at 1M rows (244 partitions): 18.5 ms with every partition, 11.1 with 80;
   * a search filtered on "current" only is run unfiltered on big tables (lance-late-filter.ts).
   */
  nprobes: number;
  /** The index proposes `limit * refineFactor` candidates by their compressed vectors; their full vectors re-rank them. */
  refineFactor: number;
}

/**
 * A dedupe lookup: a deep re-rank, so its decisions are the same with and without the index on the
 * test set (see the scale tests).
 */
export const DEDUPE_PROBES: Readonly<Probes> = Object.freeze({ nprobes: 50, refineFactor: 10 });
/**
 * A search a user reads (`recall search`, `memory_search`, SessionStart context). Reading candidates'
 * full vectors costs more than probing partitions, and what a search misses comes from partitions not
 * probed: on a 1M-row store (244 partitions, 200 queries as bench/vector-index.mjs asks them), 80
 * probes re-ranking 3 candidates per result had 91% of the top 10 in common with an exact search and
 * the same best hit on 200, against 87% and 190 for 50 probes re-ranking 5, and were not slower.
 */
export const SEARCH_PROBES: Readonly<Probes> = Object.freeze({ nprobes: 80, refineFactor: 3 });

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
  probes: Readonly<Probes> = DEDUPE_PROBES,
): Promise<Neighbor[]> {
  const found = await nearestRows(t, vector, filter, limit, probes, RECORD_COLUMNS);
  return found.map(({ row, similarity }) => ({ record: toRecord(row), similarity }));
}

/**
 * queryNearest for a search: ids and similarities only. On a big store, reading every column of each
 * candidate adds half again to the search (at 1M rows, 40 candidates: 11.2 ms against 7.5); the
 * caller reads the few rows it shows (getMany).
 */
export async function queryNearestIds(
  t: Table,
  vector: Float32Array,
  filter: string | null,
  limit: number,
  probes: Readonly<Probes>,
  late: LateFilter | null = null,
): Promise<VectorMatch[]> {
  const found = await nearestRows(t, vector, filter, limit, probes, ['id'], late);
  return found.map(({ row, similarity }) => ({ id: String(row.id), similarity }));
}

/** The rows of a vector search (`columns` and the vector), most similar first, ties by id. */
async function nearestRows(
  t: Table,
  vector: Float32Array,
  filter: string | null,
  limit: number,
  probes: Readonly<Probes>,
  columns: readonly string[],
  late: LateFilter | null = null,
): Promise<Array<{ row: Row; similarity: number }>> {
  // A zero vector has no direction: nothing is similar to it (and cosine distance would be NaN).
  if (limit <= 0 || !vector.some((x) => x !== 0)) return [];
  const search = (where: string | null, n: number, cols: readonly string[]) =>
    guard('vector search', async () => rowsOf(await nearestQuery(t, vector, where, n, probes, cols).toArrow()));
  let rows: Row[] | null = null;
  if (late !== null) {
    const fetched = lateFilterFetch(limit);
    rows = keepPassing(await search(null, fetched, [...columns, ...late.columns]), late, limit, fetched, byDistance);
  }
  rows ??= await search(filter, limit, columns);
  return rows
    .map((row) => ({ row, similarity: cosineSimilarity(vector, toFloat32(row.vector)) }))
    .sort((a, b) => b.similarity - a.similarity || String(a.row.id).localeCompare(String(b.row.id)));
}

/** The query queryNearest runs (exported so a test can read its plan); `columns` come back with the vector. */
export function nearestQuery(
  t: Table,
  vector: Float32Array,
  filter: string | null,
  limit: number,
  probes: Readonly<Probes> = DEDUPE_PROBES,
  columns: readonly string[] = RECORD_COLUMNS,
): VectorQuery {
  const q = t
    .vectorSearch(vector)
    .distanceType('cosine')
    .select([...columns, 'vector'])
    .maximumNprobes(filter === null ? probes.nprobes : 0)
    .minimumNprobes(probes.nprobes)
    .refineFactor(probes.refineFactor)
    .limit(limit);
  return filter === null ? q : q.where(filter);
}

/**
 * BM25 over `content`; the caller makes sure the index exists. Query text is matched term by term (OR).
 * Each candidate's row comes back whole: read inside the search's own plan it costs a fraction of a
 * separate read by id, and in a hybrid search the rows shown are nearly always among these (see
 * searchMemories).
 */
export async function queryText(t: Table, query: string, filter: string | null, limit: number, late: LateFilter | null = null): Promise<TextHit[]> {
  if (limit <= 0 || !/[\p{L}\p{N}]/u.test(query)) return [];
  const search = (where: string | null, n: number) => {
    let q = t.query().fullTextSearch(query, { columns: 'content' }).select([...RECORD_COLUMNS, '_score']).limit(n);
    if (where !== null) q = q.where(where);
    return guard('full-text search', async () => rowsOf(await q.toArrow()));
  };
  let rows: Row[] | null = null;
  if (late !== null) {
    // BM25 scores come from the whole index either way: a filter only narrows the rows scored.
    const fetched = lateFilterFetch(limit);
    rows = keepPassing(await search(null, fetched), late, limit, fetched, byScore);
  }
  rows ??= await search(filter, limit);
  return rows
    .map((row) => ({ record: toRecord(row), score: Number(row._score) }))
    .filter((hit) => Number.isFinite(hit.score) && hit.score > 0)
    .sort((a, b) => b.score - a.score || a.record.id.localeCompare(b.record.id));
}

/** The cosine similarity of `vector` to each of these rows that exists, read by id (ids in one statement). */
export async function querySimilarities(t: Table, vector: Float32Array, ids: readonly string[]): Promise<VectorMatch[]> {
  if (ids.length === 0 || !vector.some((x) => x !== 0)) return [];
  const found = await guard('query', async () => rowsOf(await t.query().select(['id', 'vector']).where(`id IN ${sqlList(ids)}`).toArrow()));
  return found.map((row) => ({ id: String(row.id), similarity: cosineSimilarity(vector, toFloat32(row.vector)) }));
}

/**
 * The BM25 score of `query` for each of these rows that matches it: the same full-text search, its
 * rows narrowed to the ids (the scores still come from the whole index).
 */
export async function queryTextScores(t: Table, query: string, ids: readonly string[]): Promise<TextScore[]> {
  if (ids.length === 0 || !/[\p{L}\p{N}]/u.test(query)) return [];
  const q = t.query().fullTextSearch(query, { columns: 'content' }).select(['id', '_score']).where(`id IN ${sqlList(ids)}`).limit(ids.length);
  const found = await guard('full-text search', async () => rowsOf(await q.toArrow()));
  return found.map((row) => ({ id: String(row.id), score: Number(row._score) })).filter((hit) => Number.isFinite(hit.score) && hit.score > 0);
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
    for (const row of rowsOf(next.value)) {
      pending.push(toStoredMemory(row));
      if (pending.length >= batchSize) {
        yield pending;
        pending = [];
      }
    }
  }
  if (pending.length > 0) yield pending;
}
