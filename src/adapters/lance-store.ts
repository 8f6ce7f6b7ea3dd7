/**
 * The LanceDB-backed MemoryStore: with its lance-* siblings, the only code that imports
 * @lancedb/lancedb (and apache-arrow). Loaded by the worker and the CLI only, never by hooks.
 *
 * One table, `memories`, created on the first insert because only then is the vector dimension
 * known. The embedder id and dimension live in the table's own schema metadata
 * (`recall.embedder`, `recall.dimension`), so they are written in the same commit that creates the
 * table and can never drift from the vectors. A BM25 full-text index on `content` is made with the
 * table (or on first text search of an older table).
 */
import { findDanglingVersions, relinkDanglingVersions } from './lance-dangling.js';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import type { Connection, Session, Table } from '@lancedb/lancedb';
import { monotonicFactory } from 'ulid';
import { RecallError } from '../core/errors.js';
import { contentKey, type MemoryRecord } from '../core/memory.js';
import { systemClock } from '../core/ports.js';
import type { Clock, GroupCount, ListOptions, ListPageOptions, MemoryFilters, NewMemory, StoredMemory } from '../core/ports.js';
import { CURRENT_ONLY, TABLE, buildFilter, checkVector, cursorFilter, describeLanceError, guard, sqlList, sqlString, toRow } from './lance-rows.js';
import { addStaged, readStagedKeys, swapInStaged } from './lance-reembed.js';
import type { ReembedContext } from './lance-reembed.js';
import { DEDUPE_PROBES, queryNearest, queryNearestIds, queryRows, querySimilarities, queryText, queryTextScores, readRows, scanRows, SEARCH_PROBES } from './lance-search.js';
import { addMissingColumns, checkFtsIndexLoads, ensureFtsIndex, ensureFtsIndexOnWrite, memorySchema, readEmbedderInfo, rebuildFtsIndex, warmFtsIndex, type EmbedderInfo, type LanceModule } from './lance-tables.js';
import { explainDataDamage } from './lance-damage-errors.js';
import { queryGroupCounts } from './lance-group-counts.js';
import { readGroupCounts, writeGroupCounts, type TableStamp } from './group-counts-file.js';
import { inspectTable, rewriteFromReadable } from './lance-salvage.js';
import type { LanceStore } from './lance-store-port.js';
import { isMaintenanceDue, maintainTable } from './lance-index.js';
import { damagedHead } from './lance-versions.js';
import { lookupMany } from './lance-lookup-many.js';
import { LATE_FILTER_MIN_ROWS, lateFilterFor, type LateFilter } from './lance-late-filter.js';
import { loadVectorSnapshot, snapshotCanSearch, snapshotNearest, snapshotSimilarities, type VectorSnapshot } from './lance-vector-snapshot.js';
import type { MaintenancePolicy } from '../core/maintenance.js';
import { describeStoreLocation, type StoreLocation } from '../core/store-location.js';

const DEFAULT_SEARCH_LIMIT = 10;
/**
 * Object-store requests: fail within seconds rather than retry for minutes (the object_store default),
 * so a capture against a store that went away is queued for a retry instead of hanging the worker.
 */
const OBJECT_STORE_OPTIONS = { connect_timeout: '5s', timeout: '60s', client_max_retries: '3', client_retry_timeout: '30' };
/**
 * Reads a long-lived process issues to a local store at once. Each read of a local file runs on a thread
 * of the binding's tokio blocking pool (up to 512 threads, each kept 10 s after its last task, no setting
 * reaches it from outside), so the pool grows to the most reads ever in flight within 10 s and, under
 * steady searching, stays there: `recall serve` climbed to 140-185 threads. Lance's own default for a
 * local store is higher; the page cache answers these reads, so 2 at once cost no search time (measured
 * in bench/serve-steady.mjs, docs/operations.md). Only local stores: an object store needs its parallelism.
 * `recall serve` bounds the pool for sure by reading in a child process it replaces (app/hosted-store.ts).
 */
const LONG_LIVED_IO_THREADS = 2;
/** Enough CPU-pool threads that the full-text index builder's producer and writer never wait on each other. */
const MIN_LANCE_CPU_THREADS = 4;
/** Ids per `IN (...)` filter, to keep statements a sane size. */
const IDS_PER_STATEMENT = 500;
/**
 * LanceDB's caches, per open store (its defaults: 6 GiB of index data, 1 GiB of file metadata).
 * Entries of an index or a file that was since replaced are never read again but stay until the
 * cache is full, so a long-lived reader such as `recall serve`, which loads the text index whole
 * after each change, would otherwise grow by about 100 MB per change at 1M rows. Searches at 1M
 * rows keep 70-190 MB of index data.
 */
export const CACHE_BYTES = { index: 512 * 1024 * 1024, metadata: 128 * 1024 * 1024 } as const;

export type { DamageRepair, LanceStore } from './lance-store-port.js';

export interface OpenStoreOptions {
  clock?: Clock;
  /** LanceDB's cache sizes; CACHE_BYTES by default. */
  cacheBytes?: { index: number; metadata: number };
  /** From how many rows a near-total filter is checked after a search (default LATE_FILTER_MIN_ROWS; see lance-late-filter.ts). */
  lateFilterMinRows?: number;
  /**
   * A process that stays up (recall serve, the MCP server) and reads a local store: Lance's reads at once
   * held to LONG_LIVED_IO_THREADS, unless LANCE_IO_THREADS is set already (see there).
   */
  longLived?: boolean;
  /**
   * Where the last group counts are kept between processes (group-counts-file.ts): a file in the state
   * dir. Without it each process counts the rows anew.
   */
  groupCountsFile?: string;
}

/** Opens the store at a location (a bare string is a local folder). */
export async function openLanceStore(at: StoreLocation | string, opts: OpenStoreOptions = {}): Promise<LanceStore> {
  const location: StoreLocation = typeof at === 'string' ? { kind: 'local', uri: at } : at;
  const dir = describeStoreLocation(location);
  const clock = opts.clock ?? systemClock;
  const nextId = monotonicFactory();
  // Keep LanceDB's Rust-side warnings off stderr unless the user asked for them.
  process.env.LANCEDB_LOG ??= 'error';
  // Lance sizes its CPU pool from the core count; on 1-2 cores building or updating the full-text index
  // deadlocks once it writes more than one batch of posting lists (measured here: a 1M-row store hung
  // with no CPU; lancedb/lancedb#3568). Read when Lance starts its pool, so set it before the import.
  process.env.LANCE_CPU_THREADS ??= String(Math.max(MIN_LANCE_CPU_THREADS, availableParallelism()));
  if (opts.longLived === true && location.kind === 'local') process.env.LANCE_IO_THREADS ??= String(LONG_LIVED_IO_THREADS);
  const [lancedb, arrow] = await guard('load', () => Promise.all([import('@lancedb/lancedb'), import('apache-arrow')]));
  const caches = opts.cacheBytes ?? CACHE_BYTES;
  const session = new lancedb.Session(BigInt(caches.index), BigInt(caches.metadata));
  let db: Connection | null = await connectTo(lancedb, location, session);
  let table: Table | null = null;
  /**
   * The last group counts with the table, version and row count they were read at (countByNamespaceAndType):
   * a table made anew (salvage, another process) starts its versions again, so all three must match.
   */
  let groupCounts: { table: Table; version: number; rows: number; counts: Promise<GroupCount[]> } | null = null;
  /** Whether this process has seen the full-text index on the current table. */
  let ftsReady = false;
  /** The full-text index last loaded whole (warmTextIndex), and the table version it was checked at. */
  let warmedText: { index: string | null; version: number } | null = null;
  /** The in-memory copy warmVectors made (null when the table has a vector index), and the version it looked at. */
  let vectors: { snapshot: VectorSnapshot | null; version: number } | null = null;
  /** The embedder recorded with the table and its row count, and the table and version they were read at. */
  let factsAt: { table: Table; version: number; info: EmbedderInfo; rows: number } | null = null;
  const where = `${TABLE} in ${dir}`;
  const writeWarnings: string[] = [];

  function connection(): Connection {
    if (db === null) throw new RecallError('STORE_FAILED', 'the memory store is closed');
    return db;
  }

  function reembedContext(): ReembedContext {
    return { lancedb, arrow, conn: connection(), dir };
  }

  /** The table if it exists; another process may have created it since we last looked. */
  async function existingTable(): Promise<Table | null> {
    if (table !== null) return table;
    const conn = connection();
    const names = await guard('list tables', () => conn.tableNames());
    if (!names.includes(TABLE)) return null;
    const opened = await guard('open table', () => conn.openTable(TABLE)).catch((err: unknown) => {
      throw explainOpenFailure(location, err);
    });
    // A table from an older recall gains the columns added since, as nulls, before anything reads it.
    await addMissingColumns(opened);
    table = opened;
    return table;
  }

  /** The table for a write of `dimension`-dim vectors from `embedder`, created (with its text index) if missing. */
  async function tableForWrite(embedder: string, dimension: number): Promise<Table> {
    let t = await existingTable();
    if (t === null) {
      const conn = connection();
      // existOk: a racing process may have created it first; the metadata check below catches a mismatch.
      t = await guard('create table', () =>
        conn.createEmptyTable(TABLE, memorySchema(arrow, embedder, dimension), { mode: 'create', existOk: true }),
      );
      table = t;
    }
    const info = await readEmbedderInfo(arrow, t, where);
    if (info.embedder !== embedder || info.dimension !== dimension) {
      throw new RecallError(
        'EMBEDDER_MISMATCH',
        `the memory store holds ${info.dimension}-dim vectors from ${info.embedder}, not ${dimension}-dim from ${embedder}; ` +
          're-embed the store with `recall reindex` (or switch the embedder back) before adding memories',
      );
    }
    return t;
  }

  /** The group counts kept in the state dir for this very table state, else counted (and kept there). */
  async function keptOrCountedGroups(t: Table, version: number, rows: number): Promise<GroupCount[]> {
    const file = opts.groupCountsFile;
    if (file === undefined) return queryGroupCounts(t);
    const committed = (await guard('list versions', () => t.listVersions())).find((v) => v.version === version);
    if (committed === undefined) return queryGroupCounts(t);
    const stamp: TableStamp = { store: dir, version, committedAt: committed.timestamp.toISOString(), rows };
    const kept = readGroupCounts(file, stamp);
    if (kept !== null) return kept;
    const counts = await queryGroupCounts(t);
    // Counted at this version only if no commit came in meanwhile (a read sees the latest commit).
    if ((await guard('read the table version', () => t.version())) === version) writeGroupCounts(file, stamp, counts);
    return counts;
  }

  /** The table for a vector search with this query vector; null when there is nothing to search. */
  async function tableToSearch(vector: Float32Array, limit: number): Promise<Table | null> {
    const t = await existingTable();
    if (t === null || limit <= 0) return null;
    const { dimension } = await currentEmbedderInfo(t);
    checkVector(vector, dimension, 'query vector');
    return t;
  }

  /**
   * The embedder recorded with the table and its row count, read again whenever the table's version
   * changed (any write, a re-embed elsewhere included, makes a new version): a version read costs a
   * third of a schema read, and a search asks twice.
   */
  async function currentFacts(t: Table): Promise<{ info: EmbedderInfo; rows: number }> {
    const version = await guard('read the table version', () => t.version());
    if (factsAt !== null && factsAt.table === t && factsAt.version === version) return factsAt;
    const [info, rows] = await Promise.all([readEmbedderInfo(arrow, t, where), guard('count', () => t.countRows())]);
    factsAt = { table: t, version, info, rows };
    return factsAt;
  }

  async function currentEmbedderInfo(t: Table): Promise<EmbedderInfo> {
    return (await currentFacts(t)).info;
  }

  /** The late filter for a search with these filters on a table this big (lance-late-filter.ts), or null. */
  async function lateFilterOn(t: Table, filters: MemoryFilters): Promise<LateFilter | null> {
    const late = lateFilterFor(filters);
    return late !== null && (await currentFacts(t)).rows >= (opts.lateFilterMinRows ?? LATE_FILTER_MIN_ROWS) ? late : null;
  }

  /** warmVectors' copy of the table, if the table is still at the version copied. */
  async function currentSnapshot(t: Table): Promise<VectorSnapshot | null> {
    const snapshot = vectors?.snapshot ?? null;
    if (snapshot === null) return null;
    return (await guard('read the table version', () => t.version())) === snapshot.version ? snapshot : null;
  }

  /**
   * After a write: the first rows build the text index. Later ones stay outside it (text search scans
   * them beside it) until upkeep folds them in: a fold rewrites the whole index, so a write that did it
   * would need memory growing with the store (MAX_UNINDEXED_TEXT_ROWS). The rows are stored by now, so
   * a failure here (a damaged index) is kept as a warning, not thrown: a caller that reported the write
   * as failed would be wrong, and a job retried for it would count its memories twice.
   */
  async function indexNewRows(t: Table, rows: number): Promise<void> {
    try {
      if (!ftsReady) ftsReady = await ensureFtsIndexOnWrite(lancedb, t);
      if (ftsReady) await checkFtsIndexLoads(t);
    } catch (err) {
      const detail = err instanceof RecallError ? err.message : describeLanceError(err);
      writeWarnings.push(`${rows} ${rows === 1 ? 'memory was' : 'memories were'} stored, but the text index could not be updated (${detail}); run \`recall repair\``);
    }
  }

  async function deleteWhere(t: Table, filter: string): Promise<number> {
    const result = await guard('delete', () => t.delete(filter));
    return result.numDeletedRows;
  }

  const store: LanceStore = {
    async embedderInfo() {
      const t = await existingTable();
      return t === null ? null : currentEmbedderInfo(t);
    },

    async findByContentKey(namespace, key) {
      const t = await existingTable();
      if (t === null) return null;
      const found = await queryRows(t, `namespace = ${sqlString(namespace)} AND content_key = ${sqlString(key)} AND ${CURRENT_ONLY}`, 1);
      return found[0] ?? null;
    },

    async nearest(namespace, vector, limit) {
      const t = await tableToSearch(vector, limit);
      return t === null ? [] : queryNearest(t, vector, `namespace = ${sqlString(namespace)} AND ${CURRENT_ONLY}`, limit, DEDUPE_PROBES);
    },

    async lookupMany(queries, limit) {
      const t = await existingTable();
      if (t === null) return queries.map(() => ({ exact: null, nearest: [] }));
      const { dimension } = await currentEmbedderInfo(t);
      queries.forEach((q) => checkVector(q.vector, dimension, 'query vector'));
      return lookupMany(t, queries, limit);
    },

    async insert(memories: readonly NewMemory[], embedder: string) {
      const first = memories[0];
      if (first === undefined) return [];
      const dimension = first.vector.length;
      memories.forEach((m, i) => checkVector(m.vector, dimension, `memory ${i}'s vector`));
      const t = await tableForWrite(embedder, dimension);
      const now = clock.now();
      const at = now.toISOString();
      const records: MemoryRecord[] = memories.map((m) => ({
        id: nextId(now.getTime()),
        content: m.content, type: m.type, importance: m.importance,
        namespace: m.namespace, projectRoot: m.projectRoot, sessionId: m.sessionId, source: m.source,
        embedder, createdAt: at, lastSeenAt: at, seenCount: 1,
        provenance: m.provenance ?? null, status: m.status ?? null,
        ...(m.wantsToReplace == null || m.wantsToReplace.length === 0 ? {} : { wantsToReplace: m.wantsToReplace }),
      }));
      const data = records.map((r, i) => ({ ...toRow(r), vector: memories[i]?.vector }));
      // One add call: one new table version for the whole batch.
      await guard('insert', () => t.add(data));
      await indexNewRows(t, data.length);
      return records;
    },

    async restore(memories: readonly StoredMemory[], embedder: string) {
      const first = memories[0];
      if (first === undefined) return;
      const dimension = first.vector.length;
      memories.forEach((m) => checkVector(m.vector, dimension, `memory ${m.id}'s vector`));
      const t = await tableForWrite(embedder, dimension);
      await guard('restore', () => t.add(memories.map((m) => ({ ...toRow({ ...m, embedder }), vector: m.vector }))));
      await indexNewRows(t, memories.length);
    },

    async reinforce(id, seenAt) {
      const t = await existingTable();
      const at = sqlString(seenAt.toISOString());
      const result = t === null ? { rowsUpdated: 0 } : await guard('reinforce', () => t.update({
        where: `id = ${sqlString(id)}`,
        valuesSql: {
          seen_count: 'seen_count + 1',
          // Never move last-seen backwards when a late job reports an older sighting (ISO strings
          // sort by time). Lance's update planner rejects CASE; greatest() works.
          last_seen_at: `greatest(last_seen_at, ${at})`,
        },
      }));
      if (result.rowsUpdated === 0) throw new RecallError('NOT_FOUND', `no memory with id ${id}`);
    },

    async supersede(oldId, newId, at) {
      const t = await existingTable();
      // Only a current memory is replaced: a second decision about the same one keeps the first.
      const result = t === null ? { rowsUpdated: 0 } : await guard('supersede', () => t.update({
        where: `id = ${sqlString(oldId)} AND ${CURRENT_ONLY}`,
        valuesSql: { superseded_by: sqlString(newId), superseded_at: sqlString(at.toISOString()) },
      }));
      if (result.rowsUpdated === 0 && (await store.get(oldId)) === null) throw new RecallError('NOT_FOUND', `no memory with id ${oldId}`);
    },

    async relink(ids, supersededBy, at) {
      const t = await existingTable();
      if (t === null || ids.length === 0) return 0;
      const result = await guard('relink', () => t.update({
        where: `id IN ${sqlList(ids)}`,
        valuesSql: supersededBy === null
          ? { superseded_by: 'NULL', superseded_at: 'NULL' }
          : { superseded_by: sqlString(supersededBy), superseded_at: sqlString(at.toISOString()) },
      }));
      return result.rowsUpdated;
    },

    async setWantsToReplace(id, ids) {
      const t = await existingTable();
      const result = t === null ? { rowsUpdated: 0 } : await guard('set wants_to_replace', () => t.update({
        where: `id = ${sqlString(id)}`,
        valuesSql: { wants_to_replace: ids === null || ids.length === 0 ? 'NULL' : sqlString(ids.join(',')) },
      }));
      if (result.rowsUpdated === 0) throw new RecallError('NOT_FOUND', `no memory with id ${id}`);
    },

    async edit(id, change) {
      const t = await existingTable();
      const dimension = (await store.embedderInfo())?.dimension ?? change.vector.length;
      checkVector(change.vector, dimension, 'the edited memory\'s vector');
      const result = t === null ? { rowsUpdated: 0 } : await guard('edit', () => t.update({
        where: `id = ${sqlString(id)}`,
        valuesSql: {
          content: sqlString(change.content), content_key: sqlString(contentKey(change.content)), type: sqlString(change.type),
          importance: floatSql(change.importance), vector: `[${Array.from(change.vector, floatSql).join(', ')}]`,
          ...(change.provenance === undefined ? {} : { provenance: sqlString(change.provenance) }),
        },
      }));
      if (result.rowsUpdated === 0) throw new RecallError('NOT_FOUND', `no memory with id ${id}`);
      if (t !== null) await indexNewRows(t, 1);
      const record = await store.get(id);
      if (record === null) throw new RecallError('NOT_FOUND', `no memory with id ${id}`);
      return record;
    },

    async setStatus(ids, status) {
      const t = await existingTable();
      if (t === null || ids.length === 0) return 0;
      const result = await guard('set status', () => t.update({
        where: `id IN ${sqlList(ids)}`,
        valuesSql: { status: status === null ? 'NULL' : sqlString(status) },
      }));
      return result.rowsUpdated;
    },

    async list(options: ListPageOptions) {
      const t = await existingTable();
      if (t === null) return [];
      const { olderThan, newerThan } = options;
      const filter = [buildFilter(options), olderThan && cursorFilter(olderThan, 'older'), newerThan && cursorFilter(newerThan, 'newer')]
        .filter((part): part is string => typeof part === 'string')
        .join(' AND ');
      // Newer than a place: the nearest rows to it come first oldest-first, then turn newest-first.
      const rows = await queryRows(t, filter === '' ? null : filter, options.limit, newerThan !== undefined);
      return newerThan !== undefined ? rows.reverse() : rows;
    },

    async get(id) {
      const t = await existingTable();
      if (t === null) return null;
      return (await queryRows(t, `id = ${sqlString(id)}`, 1))[0] ?? null;
    },

    async getMany(ids) {
      const t = await existingTable();
      if (t === null || ids.length === 0) return [];
      const snapshot = await currentSnapshot(t);
      if (snapshot !== null) {
        // Copies: a caller may change what it is given, the snapshot must not change.
        return [...new Set(ids)].flatMap((id) => {
          const record = snapshot.byId.get(id);
          return record === undefined ? [] : [{ ...record }];
        });
      }
      const found: MemoryRecord[] = [];
      for (let i = 0; i < ids.length; i += IDS_PER_STATEMENT) {
        found.push(...(await readRows(t, `id IN ${sqlList(ids.slice(i, i + IDS_PER_STATEMENT))}`)));
      }
      return found;
    },

    async delete(ids) {
      const t = await existingTable();
      if (t === null || ids.length === 0) return 0;
      if (ids.length > IDS_PER_STATEMENT) {
        throw new RecallError('INPUT_INVALID', `at most ${IDS_PER_STATEMENT} ids can be deleted at once, got ${ids.length}`);
      }
      // One statement: one commit, so a delete is never half done.
      return deleteWhere(t, `id IN ${sqlList(ids)}`);
    },

    async deleteNamespace(namespace) {
      const t = await existingTable();
      return t === null ? 0 : deleteWhere(t, `namespace = ${sqlString(namespace)}`);
    },

    async count(filters: MemoryFilters = {}) {
      const t = await existingTable();
      if (t === null) return 0;
      // History included: without other filters LanceDB counts from its metadata, reading no rows.
      const filter = buildFilter({ ...filters, allVersions: true });
      return guard('count', () => t.countRows(filter ?? undefined));
    },

    async countByNamespaceAndType() {
      const t = await existingTable();
      if (t === null) return [];
      // Every read sees the latest commit (readConsistencyInterval 0): the same version, the same counts.
      const version = await guard('read the table version', () => t.version());
      const rows = await guard('count', () => t.countRows());
      if (groupCounts !== null && groupCounts.table === t && groupCounts.version === version && groupCounts.rows === rows) return groupCounts.counts;
      // Callers at the same time (the page's parts) share one read.
      const counts = keptOrCountedGroups(t, version, rows);
      groupCounts = { table: t, version, rows, counts };
      return counts.catch((err: unknown) => {
        if (groupCounts?.counts === counts) groupCounts = null;
        throw err;
      });
    },

    async dataVersion() {
      const t = await existingTable();
      return t === null ? null : guard('read the table version', () => t.version());
    },

    async search(vector, options: ListOptions) {
      const limit = options.limit ?? DEFAULT_SEARCH_LIMIT;
      const t = await tableToSearch(vector, limit);
      if (t === null) return [];
      const snapshot = snapshotCanSearch(options) ? await currentSnapshot(t) : null;
      if (snapshot !== null) return snapshotNearest(snapshot, vector, options, limit);
      return queryNearestIds(t, vector, buildFilter(options), limit, SEARCH_PROBES, await lateFilterOn(t, options));
    },

    async textSearch(query, options: ListOptions) {
      const t = await existingTable();
      const limit = options.limit ?? DEFAULT_SEARCH_LIMIT;
      if (t === null || limit <= 0) return [];
      const filter = buildFilter(options);
      if (ftsReady) {
        try {
          return await queryText(t, query, filter, limit, await lateFilterOn(t, options));
        } catch {
          // Another process may have rewritten the table (a re-embed) and not rebuilt the index yet.
        }
      }
      // A table made before recall had text search, or one just rewritten elsewhere.
      ftsReady = await ensureFtsIndex(lancedb, t);
      return ftsReady ? queryText(t, query, filter, limit) : [];
    },

    async vectorScores(vector, ids) {
      const t = await tableToSearch(vector, ids.length);
      if (t === null) return [];
      const snapshot = await currentSnapshot(t);
      if (snapshot !== null) return snapshotSimilarities(snapshot, vector, ids);
      const found = [];
      for (let i = 0; i < ids.length; i += IDS_PER_STATEMENT) found.push(...(await querySimilarities(t, vector, ids.slice(i, i + IDS_PER_STATEMENT))));
      return found;
    },

    async textScores(query, ids) {
      const t = await existingTable();
      if (t === null || ids.length === 0 || !ftsReady) return [];
      const found = [];
      for (let i = 0; i < ids.length; i += IDS_PER_STATEMENT) found.push(...(await queryTextScores(t, query, ids.slice(i, i + IDS_PER_STATEMENT))));
      return found;
    },

    async warmTextIndex() {
      const t = await existingTable();
      if (t === null) return false;
      // Every write makes a new version; the index changes only with some of them.
      const version = await guard('read the table version', () => t.version());
      if (warmedText?.version === version) return false;
      const before = warmedText?.index ?? null;
      const index = await warmFtsIndex(t, before);
      warmedText = { index, version };
      return index !== null && index !== before;
    },

    async warmVectors() {
      const t = await existingTable();
      if (t === null) {
        vectors = null;
        return false;
      }
      const version = await guard('read the table version', () => t.version());
      if (vectors?.version === version) return false;
      vectors = null; // Free the old copy before reading the new one.
      const { dimension } = await readEmbedderInfo(arrow, t, where);
      const snapshot = await loadVectorSnapshot(t, dimension);
      vectors = { snapshot, version: snapshot?.version ?? version };
      return snapshot !== null;
    },

    async *scan(options) {
      const t = await existingTable();
      if (t === null) return;
      yield* scanRows(t, buildFilter(options), Math.max(1, options.batchSize));
    },

    stagedVectors(embedder) {
      return readStagedKeys(reembedContext(), embedder);
    },

    stageVectors(embedder, vectors) {
      return addStaged(reembedContext(), embedder, vectors);
    },

    async swapInStagedVectors(embedder) {
      const swapped = await swapInStaged(reembedContext(), await existingTable(), embedder);
      table = swapped.table;
      ftsReady = swapped.table !== null;
      warmedText = null;
      vectors = null;
      return swapped.rows;
    },

    async optimize() {
      const t = await existingTable();
      if (t !== null) await guard('optimize', () => t.optimize());
    },

    async maintenanceDue(policy: MaintenancePolicy) {
      const t = await existingTable();
      return t !== null && isMaintenanceDue(t, (await readEmbedderInfo(arrow, t, where)).dimension, policy);
    },

    async maintain(policy: MaintenancePolicy, options = {}) {
      const t = await existingTable();
      if (t === null) return { rows: 0, vectorIndex: 'none', textIndex: false, idIndex: false, versions: 0, optimized: false, ms: 0 };
      const { dimension } = await readEmbedderInfo(arrow, t, where);
      const withLock = options.withStoreLock ?? ((fn) => fn());
      const report = await maintainTable(lancedb, t, dimension, policy, { now: clock.now(), withLock });
      ftsReady ||= report.textIndex;
      // Not part of "is upkeep due" (after every capture): at 100k memories the check costs about 20 times
      // that test (bench/dangling-versions.mjs), and only stores written before forgetting relinked
      // chains hold such memories. Every round of upkeep looks; `recall doctor` names them meanwhile.
      const danglingRelinked = await withLock(() => relinkDanglingVersions(t));
      return { ...report, danglingRelinked };
    },

    cacheBytes() {
      return Number(session.sizeBytes());
    },

    async inspectDamage() {
      const t = await existingTable();
      return t === null ? null : guard('inspect the table', () => inspectTable(t));
    },

    async repairDamage() {
      const t = await existingTable();
      if (t === null) return null;
      const before = await guard('inspect the table', () => inspectTable(t));
      if (before.damagedFragments.length > 0) {
        const rewritten = await guard('rewrite the table from its readable rows', () => rewriteFromReadable(lancedb, connection(), t, TABLE));
        table = rewritten.table;
        ftsReady = true;
        warmedText = null;
        return { before, kept: rewritten.kept, lost: before.rows - rewritten.kept, rewritten: true, textIndexRebuilt: before.textIndex !== 'none' };
      }
      if (before.textIndex === 'damaged') {
        await rebuildFtsIndex(lancedb, t);
        warmedText = null;
      }
      return { before, kept: before.rows, lost: 0, rewritten: false, textIndexRebuilt: before.textIndex === 'damaged' };
    },

    takeWriteWarnings() {
      return writeWarnings.splice(0);
    },

    async danglingVersions() {
      const t = await existingTable();
      return t === null ? [] : findDanglingVersions(t);
    },

    async relinkDanglingVersions() {
      const t = await existingTable();
      return t === null ? 0 : relinkDanglingVersions(t);
    },

    async close() {
      table?.close();
      db?.close();
      table = null;
      db = null;
    },
  };
  return explainDataDamage(store, location);
}

/**
 * `readConsistencyInterval: 0`: every read sees the latest commit of any process (or machine). An
 * `s3://` location is checked first (bucket, credentials) so its failures come back as coded errors.
 */
async function connectTo(lancedb: LanceModule, location: StoreLocation, session: Session): Promise<Connection> {
  if (location.kind === 'local') return guard('connect', () => lancedb.connect(location.uri, { readConsistencyInterval: 0, session }));
  const { checkObjectStore } = await import('./s3-client.js');
  await checkObjectStore(location);
  const { accessKeyId, secretAccessKey, sessionToken } = location.credentials;
  const storageOptions: Record<string, string> = {
    ...OBJECT_STORE_OPTIONS,
    aws_access_key_id: accessKeyId,
    aws_secret_access_key: secretAccessKey,
    ...(sessionToken === null ? {} : { aws_session_token: sessionToken }),
    aws_region: location.region,
    ...(location.endpoint === null ? {} : { aws_endpoint: location.endpoint, allow_http: String(location.endpoint.startsWith('http://')) }),
  };
  return guard('connect', () => lancedb.connect(location.uri, { readConsistencyInterval: 0, storageOptions, session }));
}

/** A local table whose newest manifests are unreadable gets a coded error that names the way out. */
function explainOpenFailure(location: StoreLocation, err: unknown): unknown {
  if (location.kind !== 'local') return err;
  const { damaged, lastGood } = damagedHead(join(location.uri, `${TABLE}.lance`));
  if (damaged.length === 0) return err;
  const versions = damaged.map((f) => `v${f.version}`).join(', ');
  const way = lastGood === null ? 'no earlier version is readable either' : `run \`recall repair\` to set ${damaged.length === 1 ? 'it' : 'them'} aside and go back to v${lastGood.version}`;
  return new RecallError('STORE_CORRUPT', `the newest version of the memory table in ${location.uri} is damaged (${versions}: unreadable manifest); ${way}`, { cause: err });
}

/** A float SQL literal: a whole number gets a decimal point, so an array of them is never read as integers. */
function floatSql(value: number): string {
  return Number.isInteger(value) ? value.toFixed(1) : String(value);
}
