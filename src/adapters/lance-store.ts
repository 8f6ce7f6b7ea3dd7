/**
 * The LanceDB-backed MemoryStore: the only module that imports @lancedb/lancedb (and apache-arrow).
 * Loaded by the worker and the CLI only, never by hooks.
 *
 * One table, `memories`, created on the first insert because only then is the vector dimension
 * known. The embedder id and dimension live in the table's own schema metadata
 * (`recall.embedder`, `recall.dimension`), so they are written in the same commit that creates the
 * table and can never drift from the vectors.
 */
import type { Connection, Table } from '@lancedb/lancedb';
import { monotonicFactory } from 'ulid';
import { RecallError } from '../core/errors.js';
import { contentKey, isMemoryType } from '../core/memory.js';
import type { MemoryRecord } from '../core/memory.js';
import { systemClock } from '../core/ports.js';
import type { Clock, ListOptions, MemoryStore, Neighbor, NewMemory } from '../core/ports.js';

const TABLE = 'memories';
const META_EMBEDDER = 'recall.embedder';
const META_DIMENSION = 'recall.dimension';
const DEFAULT_SEARCH_LIMIT = 10;
/** Every column but the vector: what reads bring back. */
const RECORD_COLUMNS = [
  'id', 'content', 'content_key', 'type', 'importance', 'namespace', 'project_root', 'session_id',
  'source', 'embedder', 'created_at', 'last_seen_at', 'seen_count',
];

export interface LanceStore extends MemoryStore {
  /** Compact files and prune old versions; each write makes a new table version. */
  optimize(): Promise<void>;
}

/** A SQL string literal for LanceDB filters: single quotes doubled (backslashes are literal). */
function sqlString(value: string): string {
  return `'${value.replace(/'/g, "''")}'`;
}

export async function openLanceStore(dir: string, opts: { clock?: Clock } = {}): Promise<LanceStore> {
  const clock = opts.clock ?? systemClock;
  const nextId = monotonicFactory();
  // Keep LanceDB's Rust-side warnings off stderr unless the user asked for them.
  process.env.LANCEDB_LOG ??= 'error';
  const [lancedb, arrow] = await guard('load', () => Promise.all([import('@lancedb/lancedb'), import('apache-arrow')]));
  let db: Connection | null = await guard('connect', () => lancedb.connect(dir, { readConsistencyInterval: 0 }));
  let table: Table | null = null;
  let info: { embedder: string; dimension: number } | null = null;

  function connection(): Connection {
    if (db === null) throw new RecallError('STORE_FAILED', 'the memory store is closed');
    return db;
  }

  /** The table if it exists; another process may have created it since we last looked. */
  async function existingTable(): Promise<Table | null> {
    if (table !== null) return table;
    const conn = connection();
    const names = await guard('list tables', () => conn.tableNames());
    if (!names.includes(TABLE)) return null;
    table = await guard('open table', () => conn.openTable(TABLE));
    return table;
  }

  /** The embedder recorded with the table; fixed for the table's life, so read once. */
  async function readEmbedderInfo(t: Table): Promise<{ embedder: string; dimension: number }> {
    if (info !== null) return info;
    const schema = await guard('read schema', () => t.schema());
    const embedder = schema.metadata.get(META_EMBEDDER);
    const vectorType = schema.fields.find((f) => f.name === 'vector')?.type;
    // By type id, not instanceof: LanceDB (CommonJS) and this module may hold different arrow builds.
    const dimension = arrow.DataType.isFixedSizeList(vectorType) ? vectorType.listSize : Number.NaN;
    if (embedder === undefined || !Number.isInteger(dimension)) {
      throw new RecallError('STORE_FAILED', `table ${TABLE} in ${dir} was not made by recall (no embedder metadata)`);
    }
    info = { embedder, dimension };
    return info;
  }

  async function createTable(embedder: string, dimension: number): Promise<Table> {
    const { Schema, Field, Utf8, Float32, Float64, Int32, FixedSizeList } = arrow;
    const text = (name: string, nullable = false) => new Field(name, new Utf8(), nullable);
    const schema = new Schema(
      [
        text('id'), text('content'), text('content_key'), text('type'),
        new Field('importance', new Float64(), false),
        text('namespace'), text('project_root', true), text('session_id', true), text('source'), text('embedder'),
        text('created_at'), text('last_seen_at'),
        new Field('seen_count', new Int32(), false),
        new Field('vector', new FixedSizeList(dimension, new Field('item', new Float32(), true)), false),
      ],
      new Map([[META_EMBEDDER, embedder], [META_DIMENSION, String(dimension)]]),
    );
    const conn = connection();
    // existOk: a racing process may have created it first; the caller re-checks its metadata.
    table = await guard('create table', () => conn.createEmptyTable(TABLE, schema, { mode: 'create', existOk: true }));
    return table;
  }

  async function assertSameEmbedder(t: Table, embedder: string, dimension: number): Promise<void> {
    const info = await readEmbedderInfo(t);
    if (info.embedder !== embedder || info.dimension !== dimension) {
      throw new RecallError(
        'EMBEDDER_MISMATCH',
        `the memory store holds ${info.dimension}-dim vectors from ${info.embedder}, not ${dimension}-dim from ${embedder}; ` +
          're-embed the store with the new embedder (or switch the embedder back) before adding memories',
      );
    }
  }

  async function rows(t: Table, filter: string | null, limit: number | undefined): Promise<MemoryRecord[]> {
    let q = t.query().select(RECORD_COLUMNS);
    if (filter !== null) q = q.where(filter);
    q = q.orderBy([
      { columnName: 'created_at', ascending: false, nullsFirst: false },
      { columnName: 'id', ascending: false, nullsFirst: false },
    ]);
    if (limit !== undefined) {
      // LanceDB treats limit(0) (and negative limits) as "no limit".
      if (limit <= 0) return [];
      q = q.limit(limit);
    }
    const found = await guard('query', () => q.toArray());
    return found.map(toRecord);
  }

  async function vectorSearch(vector: Float32Array, filter: string | null, limit: number): Promise<Neighbor[]> {
    const t = await existingTable();
    if (t === null || limit <= 0) return [];
    const { dimension } = await readEmbedderInfo(t);
    checkVector(vector, dimension, 'query vector');
    // A zero vector has no direction: nothing is similar to it (and cosine distance would be NaN).
    if (!vector.some((x) => x !== 0)) return [];
    let q = t.vectorSearch(vector).distanceType('cosine').select(RECORD_COLUMNS).limit(limit);
    if (filter !== null) q = q.where(filter);
    const found = await guard('vector search', () => q.toArray());
    return found.map((row: Row) => ({ record: toRecord(row), similarity: 1 - Number(row._distance) }));
  }

  return {
    async embedderInfo() {
      const t = await existingTable();
      return t === null ? null : readEmbedderInfo(t);
    },

    async findByContentKey(namespace, key) {
      const t = await existingTable();
      if (t === null) return null;
      const found = await rows(t, `namespace = ${sqlString(namespace)} AND content_key = ${sqlString(key)}`, 1);
      return found[0] ?? null;
    },

    nearest(namespace, vector, limit) {
      return vectorSearch(vector, `namespace = ${sqlString(namespace)}`, limit);
    },

    async insert(memories: readonly NewMemory[], embedder: string) {
      const first = memories[0];
      if (first === undefined) return [];
      const dimension = first.vector.length;
      memories.forEach((m, i) => checkVector(m.vector, dimension, `memory ${i}'s vector`));
      const t = (await existingTable()) ?? (await createTable(embedder, dimension));
      await assertSameEmbedder(t, embedder, dimension);
      const now = clock.now();
      const at = now.toISOString();
      const records: MemoryRecord[] = memories.map((m) => ({
        id: nextId(now.getTime()),
        content: m.content, type: m.type, importance: m.importance,
        namespace: m.namespace, projectRoot: m.projectRoot, sessionId: m.sessionId, source: m.source,
        embedder, createdAt: at, lastSeenAt: at, seenCount: 1,
      }));
      const data = records.map((r, i) => ({ ...toRow(r), vector: memories[i]?.vector }));
      // One add call: one new table version for the whole batch.
      await guard('insert', () => t.add(data));
      return records;
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

    async list(options: ListOptions) {
      const t = await existingTable();
      return t === null ? [] : rows(t, buildFilter(options), options.limit);
    },

    async count(namespace?: string) {
      const t = await existingTable();
      if (t === null) return 0;
      const filter = namespace === undefined ? undefined : `namespace = ${sqlString(namespace)}`;
      return guard('count', () => t.countRows(filter));
    },

    search(vector, options: ListOptions) {
      return vectorSearch(vector, buildFilter(options), options.limit ?? DEFAULT_SEARCH_LIMIT);
    },

    async optimize() {
      const t = await existingTable();
      if (t !== null) await guard('optimize', () => t.optimize());
    },

    async close() {
      table?.close();
      db?.close();
      table = null;
      info = null;
      db = null;
    },
  };
}

type Row = Record<string, unknown>;

function buildFilter(options: ListOptions): string | null {
  const parts: string[] = [];
  if (options.namespace !== undefined) parts.push(`namespace = ${sqlString(options.namespace)}`);
  if (options.type !== undefined) parts.push(`type = ${sqlString(options.type)}`);
  return parts.length === 0 ? null : parts.join(' AND ');
}

function checkVector(vector: Float32Array, dimension: number, what: string): void {
  if (vector.length !== dimension) {
    // LanceDB would silently pad or truncate a wrong-length vector; refuse it here instead.
    throw new RecallError('EMBEDDER_MISMATCH', `${what} has ${vector.length} dimensions, the store expects ${dimension}`);
  }
  if (!vector.every(Number.isFinite)) throw new RecallError('INPUT_INVALID', `${what} contains NaN or infinite values`);
}

function toRow(r: MemoryRecord): Row {
  return {
    id: r.id, content: r.content, content_key: contentKey(r.content), type: r.type, importance: r.importance,
    namespace: r.namespace, project_root: r.projectRoot, session_id: r.sessionId, source: r.source,
    embedder: r.embedder, created_at: r.createdAt, last_seen_at: r.lastSeenAt, seen_count: r.seenCount,
  };
}

function toRecord(row: Row): MemoryRecord {
  const type = String(row.type);
  if (!isMemoryType(type)) throw new RecallError('STORE_FAILED', `memory ${String(row.id)} has unknown type ${type}`);
  return {
    id: String(row.id), content: String(row.content), type, importance: Number(row.importance),
    namespace: String(row.namespace), projectRoot: nullableString(row.project_root),
    sessionId: nullableString(row.session_id), source: String(row.source), embedder: String(row.embedder),
    createdAt: String(row.created_at), lastSeenAt: String(row.last_seen_at), seenCount: Number(row.seen_count),
  };
}

function nullableString(value: unknown): string | null {
  return value === null || value === undefined ? null : String(value);
}

/** Runs one library call; anything but a RecallError becomes STORE_FAILED with the original as cause. */
async function guard<T>(operation: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof RecallError) throw err;
    const detail = err instanceof Error ? (err.message.split('\n')[0] ?? err.name) : String(err);
    throw new RecallError('STORE_FAILED', `LanceDB ${operation} failed: ${detail}`, { cause: err });
  }
}
