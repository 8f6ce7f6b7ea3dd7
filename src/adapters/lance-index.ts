/**
 * Index upkeep for the memories table: the vector index (cosine, IVF-RQ or IVF-PQ) past a row count,
 * the full-text index, and compaction of table versions. Called by the worker after a capture.
 *
 * Facts this relies on (LanceDB 0.31): rows added after an index was built are still searched (flat,
 * next to the index) until `optimize()` folds them in as a delta segment; `optimize({cleanupOlderThan})`
 * compacts small fragments, folds unindexed rows into every index and prunes older versions.
 */
import type { IndexConfig, Table } from '@lancedb/lancedb';
import type { MaintenancePolicy, MaintenanceReport } from '../core/maintenance.js';
import { guard } from './lance-rows.js';
import { MAX_UNINDEXED_TEXT_ROWS, ensureFtsIndex } from './lance-tables.js';
import type { LanceModule } from './lance-tables.js';

export const VECTOR_COLUMN = 'vector';
/**
 * The BTREE index on `id`. The vector side of a search returns ids only, and the rows of the hits
 * shown that only it found are read by id (`id IN (...)`): without this index that read scans every
 * id (about 45 ms at 1M rows), with it 3-4 ms for 10 rows. `get`, `reinforce` and `delete` by id gain
 * alike. It builds in well under a second at 1M rows, so it comes at 10,000 rows, or with the vector
 * index if that comes sooner.
 */
export const ID_COLUMN = 'id';
/**
 * Indexes on the columns searches filter on come with it. A BTREE on `superseded_by`: every read
 * filters on `superseded_by IS NULL`, which without it reads the column whole (at 100k rows a vector
 * search took 6.6 ms against 3.9 unfiltered; with the index 4.6 ms; a text search 5.2 ms against 3.4,
 * with the index 3.5). A BITMAP on `namespace` (a few values, many rows each): a search in a project
 * and the global namespace (`--project`, `--here`, the SessionStart context, `memory_search`) lists
 * the rows that pass before it searches, and at 1M rows in 20 projects took 64.8 ms for the vector
 * side and 39.2 ms for the text side without it, 37.1 and 11.9 ms with it, with the same answers
 * (the index built in 0.2 s).
 */
const KEY_INDEXES = [
  { column: ID_COLUMN, kind: 'btree' },
  { column: 'superseded_by', kind: 'btree' },
  { column: 'namespace', kind: 'bitmap' },
] as const;
const ID_INDEX_MIN_ROWS = 10_000;

function wantsIdIndex(rows: number, policy: MaintenancePolicy): boolean {
  return rows >= Math.min(policy.vectorIndexMinRows, ID_INDEX_MIN_ROWS);
}

function missingKeyIndexes(indices: readonly IndexConfig[]): Array<(typeof KEY_INDEXES)[number]> {
  return KEY_INDEXES.filter(({ column }) => !indices.some((index) => index.columns.includes(column)));
}

/** Rows outside the vector index are scanned flat on every search; past this many, compact. */
const MAX_UNINDEXED_VECTOR_ROWS = 2_000;

/** Rows outside an index past which upkeep folds them in: the text index's own bound (writes never fold), else the vector one. */
function maxUnindexedRows(index: IndexConfig): number {
  return index.indexType === 'FTS' ? MAX_UNINDEXED_TEXT_ROWS : MAX_UNINDEXED_VECTOR_ROWS;
}
/**
 * Each `optimize()` folds new rows in as one more delta segment of the vector index (measured: 2000 rows
 * then six rounds of 100 give 7 segments), and a search visits every segment. Past this many, retrain
 * the index from scratch; that is slow on a big store (about a minute at 100k rows on 2 cores), but runs
 * in the worker without the store lock, after a capture has been recorded.
 */
const MAX_VECTOR_SEGMENTS = 16;
const DEFAULT_PRUNE_GRACE_MS = 60_000;
/**
 * The fewest rows a vector index is built for: product quantization trains 256 centroids per
 * sub-vector and LanceDB refuses fewer rows (a flat search of so few is fast anyway).
 */
export const MIN_VECTOR_INDEX_ROWS = 256;

/** The vector index kinds recall builds, as `listIndices()` names them. */
export type VectorIndexType = 'IvfRq' | 'IvfPq';

/**
 * IVF-RQ (RaBitQ, one bit per dimension) wherever LanceDB allows it, which is for dimensions divisible
 * by 8 (384, 768, 1024: every real embedder); IVF-PQ for the rest. On the same 1M rows with the same
 * probes and exact re-rank, RQ builds in about a third of PQ's time and agrees with an exact search more
 * often, at least as fast (bench/vector-index.mjs; figures in the README).
 */
export function vectorIndexType(dimension: number): VectorIndexType {
  return dimension % 8 === 0 ? 'IvfRq' : 'IvfPq';
}

/** The index options for `dimension`-dim vectors: cosine, LanceDB's default partition count. */
export function vectorIndex(lancedb: LanceModule, dimension: number) {
  if (vectorIndexType(dimension) === 'IvfRq') return lancedb.Index.ivfRq({ distanceType: 'cosine' });
  // LanceDB's own choice of sub-vectors for a dimension not divisible by 8 is one.
  return lancedb.Index.ivfPq({ distanceType: 'cosine', numSubVectors: 1 });
}

/** Whether a round of upkeep would do anything: cheap reads only (row count, versions, index stats). */
export async function isMaintenanceDue(t: Table, dimension: number, policy: MaintenancePolicy): Promise<boolean> {
  const rows = await guard('count', () => t.countRows());
  if (rows === 0) return false;
  if ((await guard('list versions', () => t.listVersions())).length >= policy.optimizeEveryVersions) return true;
  const indices = await guard('list indices', () => t.listIndices());
  const vector = indices.find((index) => index.columns.includes(VECTOR_COLUMN));
  if (vector === undefined && rows >= Math.max(policy.vectorIndexMinRows, MIN_VECTOR_INDEX_ROWS)) return true;
  if (!indices.some((index) => index.indexType === 'FTS')) return true;
  if (wantsIdIndex(rows, policy) && missingKeyIndexes(indices).length > 0) return true;
  for (const index of indices) {
    const stats = await guard('read index stats', () => t.indexStats(index.name));
    if ((stats?.numUnindexedRows ?? 0) >= maxUnindexedRows(index)) return true;
    if (index === vector && needsRebuild(vector, stats?.numIndices, dimension)) return true;
  }
  return false;
}

/** Runs `fn` under the store's inter-process lock; the identity when the caller holds none. */
export type WithLock = <T>(fn: () => Promise<T>) => Promise<T>;

/**
 * One round of upkeep. The vector index is trained without the store lock: it can take a minute at
 * 100k rows, and LanceDB commits it alongside writes made meanwhile (appended or rewritten rows are
 * simply not in it yet and are searched flat). If a compaction elsewhere rewrote the files under it,
 * the commit fails and the next round tries again. The full-text index and compaction run under the lock.
 */
export async function maintainTable(
  lancedb: LanceModule,
  t: Table,
  dimension: number,
  policy: MaintenancePolicy,
  opts: { now: Date; withLock: WithLock },
): Promise<MaintenanceReport> {
  const started = Date.now();
  const rows = await guard('count', () => t.countRows());
  const versions = (await guard('list versions', () => t.listVersions())).length;
  const report: MaintenanceReport = { rows, vectorIndex: 'none', textIndex: false, idIndex: false, versions, optimized: false, ms: 0 };
  if (rows === 0) return { ...report, ms: Date.now() - started };

  const indices = await guard('list indices', () => t.listIndices());
  const vector = indices.find((index) => index.columns.includes(VECTOR_COLUMN));
  let unindexed = 0;
  if (vector === undefined) {
    if (rows >= Math.max(policy.vectorIndexMinRows, MIN_VECTOR_INDEX_ROWS)) {
      await buildVectorIndex(lancedb, t, dimension);
      report.vectorIndex = 'built';
    }
  } else {
    const stats = await guard('read index stats', () => t.indexStats(vector.name));
    if (needsRebuild(vector, stats?.numIndices, dimension)) {
      await buildVectorIndex(lancedb, t, dimension);
      report.vectorIndex = 'rebuilt';
    } else {
      report.vectorIndex = 'present';
      unindexed = stats?.numUnindexedRows ?? 0;
    }
  }

  return opts.withLock(async () => {
    report.textIndex = await ensureFtsIndex(lancedb, t);
    const missing = missingKeyIndexes(indices);
    report.idIndex = missing.length === 0;
    if (!report.idIndex && wantsIdIndex(rows, policy)) {
      for (const { column, kind } of missing) {
        const config = kind === 'bitmap' ? lancedb.Index.bitmap() : lancedb.Index.btree();
        await guard(`create the index on ${column}`, () => t.createIndex(column, { config, replace: true }));
      }
      report.idIndex = true;
    }
    const text = (await guard('list indices', () => t.listIndices())).find((index) => index.indexType === 'FTS');
    const textUnindexed = text === undefined ? 0 : ((await guard('read index stats', () => t.indexStats(text.name)))?.numUnindexedRows ?? 0);
    // This round's own commits (indexes built or folded) count too, so upkeep never leaves the store due again at once.
    const versionsNow = versions >= policy.optimizeEveryVersions ? versions : (await guard('list versions', () => t.listVersions())).length;
    if (versionsNow >= policy.optimizeEveryVersions || unindexed >= MAX_UNINDEXED_VECTOR_ROWS || textUnindexed >= MAX_UNINDEXED_TEXT_ROWS) {
      const olderThan = new Date(opts.now.getTime() - (policy.pruneGraceMs ?? DEFAULT_PRUNE_GRACE_MS));
      await guard('optimize', () => t.optimize({ cleanupOlderThan: olderThan }));
      report.optimized = true;
    }
    return { ...report, ms: Date.now() - started };
  });
}

/** Too many delta segments, or an index of a kind recall no longer builds (IVF-PQ made by an older release). */
function needsRebuild(index: IndexConfig, segments: number | undefined, dimension: number): boolean {
  return (segments ?? 1) > MAX_VECTOR_SEGMENTS || index.indexType !== vectorIndexType(dimension);
}

async function buildVectorIndex(lancedb: LanceModule, t: Table, dimension: number): Promise<void> {
  await guard('create the vector index', () =>
    t.createIndex(VECTOR_COLUMN, { config: vectorIndex(lancedb, dimension), replace: true }),
  );
}
