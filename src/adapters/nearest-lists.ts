/**
 * The nearest stored rows of many queries at once, as rows stream past (the one-pass dedupe lookup):
 * each query keeps its `limit` most similar rows and nothing else, so what a pass holds does not grow
 * with the rows it reads. A row is scored against the queries of its own namespace with SIMD float32
 * dot products of unit vectors (simd-dot-products.ts), and only a row that could make a query's list
 * is scored again exactly with cosineSimilarity, which decides: the lists are the ones an exact
 * comparison of every row gives, ties by id.
 */
import { cosineSimilarity } from '../core/cosine-similarity.js';
import { createDotProducts, type DotProducts } from './simd-dot-products.js';

export interface Best {
  id: string;
  similarity: number;
}

/**
 * How far a float32 estimate may fall below the exact similarity and the row still be scored exactly.
 * Over unit vectors of up to 8,192 dimensions the float32 sums are off by far less (about 1e-5 at
 * 384); a row whose estimate is this far below a full list's last entry cannot enter it.
 */
export const ESTIMATE_MARGIN = 1e-3;

/** Queries of a namespace from which a row is estimated first (below, every query scores it exactly). */
const MIN_QUERIES_TO_ESTIMATE = 2;

export interface NearestQuery {
  namespace: string;
  vector: Float32Array;
}

export interface NearestLists {
  /** Offers stored row `row` to the queries of its namespace; `idOf(row)` is called only if it makes a list. */
  offer(namespace: string, vector: Float32Array, idOf: (row: number) => string, row: number): void;
  /** Each query's list, most similar first (ties by id), at most `limit` long; empty for a zero vector. */
  lists(): Best[][];
  /** Rows scored exactly so far (for tests: the estimate spares most rows that cannot make a list). */
  exactScores(): number;
}

interface Group {
  /** Query indexes, in the order their unit vectors sit in the dot-product rows. */
  queries: number[];
  from: number;
}

export function createNearestLists(queries: readonly NearestQuery[], limit: number, dimension: number): NearestLists {
  const best: Best[][] = queries.map(() => []);
  const groups = new Map<string, Group>();
  // A zero vector has no direction: nothing is similar to it.
  const live = queries.flatMap((q, i) => (q.vector.some((x) => x !== 0) ? [i] : []));
  for (const i of live) {
    const namespace = (queries[i] as NearestQuery).namespace;
    const group = groups.get(namespace) ?? { queries: [], from: 0 };
    group.queries.push(i);
    groups.set(namespace, group);
  }
  const dots = limit > 0 ? createDotProducts(live.length, dimension) : null;
  // Whether a query's estimates can be trusted (its unit vector is in the dot-product rows).
  const estimable = new Uint8Array(queries.length);
  if (dots !== null) {
    let row = 0;
    for (const group of groups.values()) {
      group.from = row;
      for (const i of group.queries) {
        const vector = (queries[i] as NearestQuery).vector;
        estimable[i] = vector.length === dimension && writeUnit(dots.vectors, row * dimension, vector) ? 1 : 0;
        row += 1;
      }
    }
  }
  // Per query, the estimate below which a row cannot make its list: -Infinity until the list is full
  // (and for good when the query's estimates cannot be trusted), then its last entry less the margin.
  const floor = new Float64Array(queries.length).fill(-Infinity);
  const unitRow = new Float32Array(dimension);
  let exact = 0;

  /** Scores the row exactly against query i and keeps it if it makes the list. */
  function score(i: number, vector: Float32Array, id: string | null, idOf: (row: number) => string, row: number): string | null {
    const list = best[i] as Best[];
    const similarity = cosineSimilarity((queries[i] as NearestQuery).vector, vector);
    exact += 1;
    const last = list[list.length - 1];
    if (list.length >= limit && last !== undefined && similarity < last.similarity) return id;
    const known = id ?? idOf(row);
    keepBest(list, { id: known, similarity }, limit);
    const full = list[limit - 1];
    if (full !== undefined && estimable[i] === 1) floor[i] = full.similarity - ESTIMATE_MARGIN;
    return known;
  }

  return {
    offer(namespace, vector, idOf, row) {
      const group = groups.get(namespace);
      if (group === undefined || limit <= 0 || vector.length !== dimension) return;
      let id: string | null = null;
      // One query: scoring it exactly costs what scaling the row for an estimate would.
      const estimates = dots === null || group.queries.length < MIN_QUERIES_TO_ESTIMATE || !writeUnit(unitRow, 0, vector) ? null : estimate(dots, unitRow, group);
      for (let g = 0; g < group.queries.length; g += 1) {
        const i = group.queries[g] as number;
        // A row that cannot reach a full list's last entry is passed over without an exact score.
        if (estimates !== null && (estimates[g] as number) < (floor[i] as number)) continue;
        id = score(i, vector, id, idOf, row);
      }
    },
    lists: () => best,
    exactScores: () => exact,
  };
}

function estimate(dots: DotProducts, unitRow: Float32Array, group: Group): Float32Array {
  return dots.compute(unitRow, group.from, group.queries.length);
}

/**
 * Writes `vector` scaled to length 1 at `at` (norm in float64); false, writing nothing, for a zero or
 * non-finite vector (such a row is scored exactly, as cosineSimilarity defines it).
 */
function writeUnit(target: Float32Array, at: number, vector: Float32Array): boolean {
  let sum = 0;
  for (let k = 0; k < vector.length; k += 1) sum += (vector[k] as number) * (vector[k] as number);
  if (sum === 0 || !Number.isFinite(sum)) return false;
  const scale = 1 / Math.sqrt(sum);
  for (let k = 0; k < vector.length; k += 1) target[at + k] = (vector[k] as number) * scale;
  return true;
}

/** Inserts into a list kept sorted most similar first (ties by id), at most `limit` long. */
export function keepBest(list: Best[], entry: Best, limit: number): void {
  const worse = (a: Best, b: Best) => a.similarity < b.similarity || (a.similarity === b.similarity && a.id > b.id);
  const last = list[list.length - 1];
  if (list.length >= limit && last !== undefined && !worse(last, entry)) return;
  let at = list.length;
  while (at > 0 && worse(list[at - 1] as Best, entry)) at -= 1;
  list.splice(at, 0, entry);
  if (list.length > limit) list.pop();
}
