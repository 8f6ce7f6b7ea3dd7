/**
 * The one-pass dedupe lookup's lists: each query keeps only its `limit` most similar rows of its own
 * namespace, the same lists (ids, order, similarities) an exact comparison of every row gives, while
 * the float32 estimate spares the exact score of most rows that cannot make a list.
 */
import { describe, expect, it } from 'vitest';
import { cosineSimilarity } from '../../../src/core/cosine-similarity.js';
import { createNearestLists, keepBest, type Best, type NearestQuery } from '../../../src/adapters/nearest-lists.js';
import { seededRandom } from '../../support/seeded-vectors.js';

const DIM = 64;
const NAMESPACES = ['global', 'project:a-00000001', 'project:b-00000002'];

interface Row {
  id: string;
  namespace: string;
  vector: Float32Array;
}

function rowsAndQueries(count: number, seed: number): { rows: Row[]; queries: NearestQuery[] } {
  const next = seededRandom(seed);
  const random = () => Float32Array.from({ length: DIM }, next);
  const rows: Row[] = Array.from({ length: count }, (_, i) => ({ id: `r${String(i).padStart(5, '0')}`, namespace: i % 10 === 5 ? 'project:c-00000003' : NAMESPACES[i % 3]!, vector: random() }));
  // Near-copies of stored rows (within the estimate's margin of each other), exact copies (ties, broken
  // by id), a zero row, a row scaled far from unit length, and queries: near rows, random, and zero.
  rows[10]!.vector = rows[7]!.vector.map((x, k) => (k === 0 ? x + 1e-6 : x));
  rows[13]!.vector = Float32Array.from(rows[7]!.vector);
  rows[16]!.vector = new Float32Array(DIM);
  rows[19]!.vector = rows[7]!.vector.map((x) => x * 1e-20);
  const queries: NearestQuery[] = [
    ...[7, 8, 9].map((r) => ({ namespace: rows[r]!.namespace, vector: rows[r]!.vector.map((x) => x + next() * 0.01) })),
    ...Array.from({ length: 12 }, (_, i) => ({ namespace: NAMESPACES[i % 3]!, vector: random() })),
    { namespace: 'global', vector: new Float32Array(DIM) },
    { namespace: 'project:none-00000000', vector: random() },
    // The only query of its namespace (scored exactly, no estimate).
    { namespace: 'project:c-00000003', vector: random() },
  ];
  return { rows, queries };
}

/** Every row of the query's namespace scored exactly, best `limit` kept: what the lists must equal. */
function exactLists(rows: readonly Row[], queries: readonly NearestQuery[], limit: number): Best[][] {
  return queries.map((q) => {
    const list: Best[] = [];
    if (!q.vector.some((x) => x !== 0)) return list;
    for (const row of rows) if (row.namespace === q.namespace) keepBest(list, { id: row.id, similarity: cosineSimilarity(q.vector, row.vector) }, limit);
    return list;
  });
}

function offerAll(rows: readonly Row[], queries: readonly NearestQuery[], limit: number) {
  const lists = createNearestLists(queries, limit, DIM);
  const idReads: number[] = [];
  rows.forEach((row, i) => lists.offer(row.namespace, row.vector, (at) => {
    idReads.push(at);
    return rows[at]!.id;
  }, i));
  return { lists, idReads };
}

describe('createNearestLists', () => {
  it('keeps the lists an exact comparison of every row gives: ids, order, ties by id and similarities', () => {
    const { rows, queries } = rowsAndQueries(3000, 11);
    for (const limit of [1, 5, 20]) {
      const { lists } = offerAll(rows, queries, limit);
      expect(lists.lists()).toEqual(exactLists(rows, queries, limit));
    }
    const { lists } = offerAll(rows, queries, 5);
    // The near-copies and the exact copy of row 7 are all in the first query's list, ties by id.
    expect(lists.lists()[0]!.map((b) => b.id).slice(0, 4).sort()).toEqual(['r00007', 'r00010', 'r00013', 'r00019']);
    expect(lists.lists().at(-3)).toEqual([]);
    expect(lists.lists().at(-2)).toEqual([]);
    expect(lists.lists().at(-1)).toHaveLength(5);
  });

  it('holds at most `limit` rows a query however many rows pass, and reads an id only for a row that makes a list', () => {
    const { rows, queries } = rowsAndQueries(3000, 12);
    const { lists, idReads } = offerAll(rows, queries, 5);
    expect(lists.lists().every((list) => list.length <= 5)).toBe(true);
    expect(lists.lists().filter((list) => list.length === 5)).toHaveLength(queries.length - 2);
    expect(lists.lists().at(-1)).toHaveLength(5);
    // Rows of a namespace without queries, and rows that make no list, never have their id read.
    expect(idReads.length).toBeLessThan(rows.length / 4);
  });

  it('scores exactly only rows whose float32 estimate could make a full list', () => {
    const { rows, queries } = rowsAndQueries(3000, 13);
    const { lists } = offerAll(rows, queries, 5);
    const offeredPairs = queries.filter((q) => q.vector.some((x) => x !== 0)).reduce((sum, q) => sum + rows.filter((r) => r.namespace === q.namespace).length, 0);
    expect(lists.exactScores()).toBeGreaterThan(0);
    expect(lists.exactScores()).toBeLessThan(offeredPairs / 4);
  });

  it('keeps nothing with a limit of 0', () => {
    const { rows, queries } = rowsAndQueries(50, 14);
    expect(offerAll(rows, queries, 0).lists.lists().every((list) => list.length === 0)).toBe(true);
  });
});
