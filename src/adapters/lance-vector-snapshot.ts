/**
 * A copy in memory of a table without a vector index: every row and its vector, read at one table
 * version, searched exactly in JavaScript. LanceDB's own exact (flat) search reads and decodes every
 * vector on each query: at 10k-20k rows 20-35 ms, against a few ms here. Only a long-lived reader
 * (`recall serve`) keeps one, and only while the table stays at that version: the caller checks the
 * version before each use, so a write by any process makes it fall back to LanceDB until reloaded.
 * The vectors sit in WebAssembly memory where SIMD dot products can read them (simd-dot-products.ts).
 * A table with a vector index is never copied, so a search answers what LanceDB would answer.
 */
import type { Table } from '@lancedb/lancedb';
import type { MemoryRecord } from '../core/memory.js';
import { canMatchInMemory, matchesFilters } from '../core/memory-filter-match.js';
import type { ListOptions, VectorMatch } from '../core/ports.js';
import { cosineSimilarity } from '../core/cosine-similarity.js';
import { RECORD_COLUMNS, guard, rowsOf, toFloat32, toRecord } from './lance-rows.js';
import { VECTOR_COLUMN } from './lance-index.js';
import { createDotProducts, type DotProducts } from './simd-dot-products.js';

/** At most this many vector values (4 bytes each) are copied: 128 MiB, about 87k rows of 384 dimensions. */
const MAX_SNAPSHOT_VALUES = 32 * 1024 * 1024;

export interface VectorSnapshot {
  /** The table version the rows were read at. */
  version: number;
  records: MemoryRecord[];
  byId: Map<string, MemoryRecord>;
  /** Each id's row index in `records` (and in `vectors`). */
  rowById: Map<string, number>;
  dimension: number;
  /** Row i's vector at [i * dimension, (i + 1) * dimension). */
  vectors: Float32Array;
  /** SIMD dot products over `vectors`; null where unavailable (then a JavaScript loop). */
  dots: DotProducts | null;
  /** Row i's squared norm. */
  squaredNorms: Float64Array;
}

/**
 * Reads the table whole at its current version; null when it has a vector index, is too big to copy,
 * or changed while it was read.
 */
export async function loadVectorSnapshot(t: Table, dimension: number): Promise<VectorSnapshot | null> {
  const version = await guard('read the table version', () => t.version());
  const indices = await guard('list indices', () => t.listIndices());
  if (indices.some((index) => index.columns.includes(VECTOR_COLUMN))) return null;
  const rows = await guard('count', () => t.countRows());
  if (rows * dimension > MAX_SNAPSHOT_VALUES) return null;
  const found = rowsOf(await guard('query', () => t.query().select([...RECORD_COLUMNS, VECTOR_COLUMN]).toArrow()));
  if ((await guard('read the table version', () => t.version())) !== version) return null;
  const dots = createDotProducts(found.length, dimension);
  const vectors = dots?.vectors ?? new Float32Array(found.length * dimension);
  const squaredNorms = new Float64Array(found.length);
  const records = found.map((row, i) => {
    const vector = toFloat32(row.vector);
    if (vector.length !== dimension) return toRecord(row); // Never matches: its norm stays 0.
    vectors.set(vector, i * dimension);
    let sum = 0;
    for (let k = 0; k < dimension; k += 1) sum += (vector[k] as number) * (vector[k] as number);
    squaredNorms[i] = sum;
    return toRecord(row);
  });
  const rowById = new Map(records.map((r, i) => [r.id, i]));
  return { version, records, byId: new Map(records.map((r) => [r.id, r])), rowById, dimension, vectors, dots, squaredNorms };
}

/** Whether the snapshot can answer a search with these options (filters it can evaluate itself). */
export function snapshotCanSearch(options: ListOptions): boolean {
  return canMatchInMemory(options);
}

/**
 * The `limit` rows most similar to `query` that pass the filters, most similar first, ties by id: an
 * exact search. Similarities are cosineSimilarity's, as the LanceDB path reports them. Rows are ranked
 * by faster float32 sums first (dot product over the row's norm), and the best twice `limit` by them
 * re-ranked exactly.
 */
export function snapshotNearest(snapshot: VectorSnapshot, query: Float32Array, options: ListOptions, limit: number): VectorMatch[] {
  if (limit <= 0 || query.length !== snapshot.dimension || !query.some((x) => x !== 0)) return [];
  const { records, vectors, squaredNorms, dimension, dots } = snapshot;
  const products = dots?.compute(query) ?? null;
  const best = new TopK(limit * 2);
  for (let i = 0; i < records.length; i += 1) {
    const norm = squaredNorms[i] as number;
    if (norm === 0 || !matchesFilters(records[i] as MemoryRecord, options)) continue;
    const product = products === null ? dotProduct(vectors, i * dimension, query) : (products[i] as number);
    best.offer(i, product / Math.sqrt(norm));
  }
  return best
    .indexes()
    .map((i) => ({ id: (records[i] as MemoryRecord).id, similarity: cosineSimilarity(query, vectors.subarray(i * dimension, (i + 1) * dimension)) }))
    .sort((a, b) => b.similarity - a.similarity || a.id.localeCompare(b.id))
    .slice(0, limit);
}

/** The cosine similarity of `query` to each of these rows that the snapshot holds, as cosineSimilarity computes it. */
export function snapshotSimilarities(snapshot: VectorSnapshot, query: Float32Array, ids: readonly string[]): VectorMatch[] {
  if (query.length !== snapshot.dimension) return [];
  const { dimension, vectors } = snapshot;
  return [...new Set(ids)].flatMap((id) => {
    const i = snapshot.rowById.get(id);
    if (i === undefined) return [];
    return [{ id, similarity: cosineSimilarity(query, vectors.subarray(i * dimension, (i + 1) * dimension)) }];
  });
}

/** Four sums side by side: the loop runs about a fifth faster than with one. */
function dotProduct(vectors: Float32Array, offset: number, query: Float32Array): number {
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  const n = query.length;
  let k = 0;
  for (; k + 3 < n; k += 4) {
    s0 += (vectors[offset + k] as number) * (query[k] as number);
    s1 += (vectors[offset + k + 1] as number) * (query[k + 1] as number);
    s2 += (vectors[offset + k + 2] as number) * (query[k + 2] as number);
    s3 += (vectors[offset + k + 3] as number) * (query[k + 3] as number);
  }
  for (; k < n; k += 1) s0 += (vectors[offset + k] as number) * (query[k] as number);
  return s0 + s1 + s2 + s3;
}

/** The `size` highest-scored indexes seen, kept in a min-heap. */
class TopK {
  private readonly heap: Array<{ index: number; score: number }> = [];

  constructor(private readonly size: number) {}

  offer(index: number, score: number): void {
    const heap = this.heap;
    if (heap.length < this.size) {
      heap.push({ index, score });
      this.siftUp(heap.length - 1);
    } else if (score > (heap[0] as { score: number }).score) {
      heap[0] = { index, score };
      this.siftDown(0);
    }
  }

  indexes(): number[] {
    return this.heap.map((entry) => entry.index);
  }

  private siftUp(at: number): void {
    const heap = this.heap;
    while (at > 0) {
      const parent = (at - 1) >> 1;
      if ((heap[parent] as { score: number }).score <= (heap[at] as { score: number }).score) return;
      [heap[parent], heap[at]] = [heap[at] as { index: number; score: number }, heap[parent] as { index: number; score: number }];
      at = parent;
    }
  }

  private siftDown(at: number): void {
    const heap = this.heap;
    for (;;) {
      const left = at * 2 + 1;
      const right = left + 1;
      let smallest = at;
      if (left < heap.length && (heap[left] as { score: number }).score < (heap[smallest] as { score: number }).score) smallest = left;
      if (right < heap.length && (heap[right] as { score: number }).score < (heap[smallest] as { score: number }).score) smallest = right;
      if (smallest === at) return;
      [heap[smallest], heap[at]] = [heap[at] as { index: number; score: number }, heap[smallest] as { index: number; score: number }];
      at = smallest;
    }
  }
}
