/**
 * The dedupe lookup for many new memories at once (import, a capture's batch), in bounded memory
 * whatever the table's state. Without a vector index, each LanceDB nearest-neighbour search reads
 * every vector of the namespace into memory (about 150 MB a search at 100k rows, and ten at once took
 * 1.6 GB); here the table is read once, batch by batch, and every query's nearest rows are kept as
 * they stream past. With a vector index, the index answers each query in turn. Exact-text matches are
 * read with one filtered query per namespace and chunk of keys, not one scan per memory.
 */
import type { Table } from '@lancedb/lancedb';
import type { MemoryRecord } from '../core/memory.js';
import type { ContentLookup, Neighbor } from '../core/ports.js';
import { CURRENT_ONLY, guard, rowsOf, sqlList, sqlString } from './lance-rows.js';
import { queryNearest, readRows, DEDUPE_PROBES } from './lance-search.js';
import { VECTOR_COLUMN } from './lance-index.js';
import { createNearestLists, type NearestLists } from './nearest-lists.js';

/** Keys or ids per `IN (...)` filter. */
const PER_STATEMENT = 500;

export interface LookupQuery {
  namespace: string;
  contentKey: string;
  vector: Float32Array;
}

export async function lookupMany(t: Table, queries: readonly LookupQuery[], limit: number): Promise<ContentLookup[]> {
  const exact = await exactMatches(t, queries);
  const indexed = (await guard('list indices', () => t.listIndices())).some((index) => index.columns.includes(VECTOR_COLUMN));
  const nearest = indexed ? await nearestOneByOne(t, queries, limit) : await nearestInOnePass(t, queries, limit);
  return queries.map((q, i) => ({ exact: exact.get(keyOf(q.namespace, q.contentKey)) ?? null, nearest: nearest[i] ?? [] }));
}

function keyOf(namespace: string, contentKey: string): string {
  return `${namespace}\u0000${contentKey}`;
}

/** The newest current memory per (namespace, content key), as findByContentKey picks it. */
async function exactMatches(t: Table, queries: readonly LookupQuery[]): Promise<Map<string, MemoryRecord>> {
  const found = new Map<string, MemoryRecord>();
  for (const [namespace, keys] of groupBy(queries, (q) => q.namespace, (q) => q.contentKey)) {
    const unique = [...new Set(keys)];
    for (let i = 0; i < unique.length; i += PER_STATEMENT) {
      const filter = `namespace = ${sqlString(namespace)} AND content_key IN ${sqlList(unique.slice(i, i + PER_STATEMENT))} AND ${CURRENT_ONLY}`;
      const rows = await guard('query', () => t.query().select(['id', 'content_key', 'created_at']).where(filter).toArrow());
      const newest = new Map<string, { id: string; createdAt: string }>();
      for (const row of rowsOf(rows)) {
        const key = String(row.content_key);
        const seen = newest.get(key);
        const candidate = { id: String(row.id), createdAt: String(row.created_at) };
        if (seen === undefined || candidate.createdAt > seen.createdAt || (candidate.createdAt === seen.createdAt && candidate.id > seen.id)) newest.set(key, candidate);
      }
      const records = await recordsById(t, [...newest.values()].map((n) => n.id));
      for (const [key, { id }] of newest) {
        const record = records.find((r) => r.id === id);
        if (record !== undefined) found.set(keyOf(namespace, key), record);
      }
    }
  }
  return found;
}

/** Index searches at once: each holds only its candidates' rows, so a few overlap the waits without holding much. */
const INDEX_SEARCHES_AT_ONCE = 8;

async function nearestOneByOne(t: Table, queries: readonly LookupQuery[], limit: number): Promise<Neighbor[][]> {
  const out: Neighbor[][] = new Array<Neighbor[]>(queries.length);
  let next = 0;
  const lane = async (): Promise<void> => {
    for (let i = next++; i < queries.length; i = next++) {
      const q = queries[i] as LookupQuery;
      out[i] = await queryNearest(t, q.vector, `namespace = ${sqlString(q.namespace)} AND ${CURRENT_ONLY}`, limit, DEDUPE_PROBES);
    }
  };
  await Promise.all(Array.from({ length: Math.min(INDEX_SEARCHES_AT_ONCE, queries.length) }, lane));
  return out;
}

/** One streamed pass over the namespaces' current rows (ids and vectors only), keeping each query's `limit` best. */
async function nearestInOnePass(t: Table, queries: readonly LookupQuery[], limit: number): Promise<Neighbor[][]> {
  const nearest = createNearestLists(queries, limit, queries[0]?.vector.length ?? 0);
  const namespaces = [...groupBy(queries, (q) => q.namespace, (q) => q).keys()];
  if (limit > 0 && queries.some((q) => q.vector.some((x) => x !== 0))) {
    for (let n = 0; n < namespaces.length; n += PER_STATEMENT) {
      const filter = `namespace IN ${sqlList(namespaces.slice(n, n + PER_STATEMENT))} AND ${CURRENT_ONLY}`;
      const batches = t.query().select(['id', 'namespace', VECTOR_COLUMN]).where(filter)[Symbol.asyncIterator]();
      for (;;) {
        const next = await guard('scan', () => batches.next());
        if (next.done) break;
        scanBatch(next.value as unknown as ScannedBatch, nearest);
      }
    }
  }
  const best = nearest.lists();
  const records = new Map((await recordsById(t, [...new Set(best.flat().map((b) => b.id))])).map((r) => [r.id, r]));
  return best.map((list) =>
    list.flatMap((b) => {
      const record = records.get(b.id);
      return record === undefined ? [] : [{ record, similarity: b.similarity }];
    }),
  );
}

/** The parts of an Arrow batch the scan reads: a column's values by row, and the vectors' flat values. */
interface ScannedColumn {
  get(row: number): unknown;
  type: { listSize?: number };
  data: ReadonlyArray<{ length: number; offset: number; children: ReadonlyArray<{ values: Float32Array; offset: number }> }>;
}
interface ScannedBatch {
  numRows: number;
  getChild(name: string): ScannedColumn | null;
}

/**
 * Every row of one streamed batch offered to the queries of its namespace. The vectors are read in
 * place from the batch's flat float values and a row's id is read only when it makes a list: the rows
 * are not turned into objects, so the garbage a pass leaves does not grow with the queries times the rows.
 */
function scanBatch(batch: ScannedBatch, nearest: NearestLists): void {
  const ids = batch.getChild('id');
  const namespaceColumn = batch.getChild('namespace');
  const vectors = batch.getChild(VECTOR_COLUMN);
  if (ids === null || namespaceColumn === null || vectors === null) return;
  const dimension = vectors.type.listSize ?? 0;
  const idOf = (row: number) => String(ids.get(row));
  let row = 0;
  for (const chunk of vectors.data) {
    const child = chunk.children[0];
    for (let r = 0; r < chunk.length; r += 1, row += 1) {
      if (child === undefined || dimension === 0) continue;
      const start = child.offset + (chunk.offset + r) * dimension;
      nearest.offer(String(namespaceColumn.get(row)), child.values.subarray(start, start + dimension), idOf, row);
    }
  }
}

async function recordsById(t: Table, ids: readonly string[]): Promise<MemoryRecord[]> {
  const out: MemoryRecord[] = [];
  for (let i = 0; i < ids.length; i += PER_STATEMENT) out.push(...(await readRows(t, `id IN ${sqlList(ids.slice(i, i + PER_STATEMENT))}`)));
  return out;
}

function groupBy<T, V>(items: readonly T[], key: (item: T) => string, value: (item: T) => V): Map<string, V[]> {
  const groups = new Map<string, V[]>();
  for (const item of items) {
    const k = key(item);
    const list = groups.get(k);
    if (list === undefined) groups.set(k, [value(item)]);
    else list.push(value(item));
  }
  return groups;
}
