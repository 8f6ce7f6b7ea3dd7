/**
 * Row mapping, SQL filter building and error translation for the LanceDB store. Pure apart from
 * `guard`; knows the table layout but never talks to LanceDB itself.
 */
import { RecallError } from '../core/errors.js';
import { contentKey, isMemoryType, isProvenance } from '../core/memory.js';
import type { MemoryRecord } from '../core/memory.js';
import type { ListCursor, MemoryFilters, StoredMemory } from '../core/ports.js';

export const TABLE = 'memories';
/** Vectors made by the embedder a re-embed moves to, until they are swapped in. */
export const STAGING_TABLE = 'memories_reindex';
export const META_EMBEDDER = 'recall.embedder';
export const META_DIMENSION = 'recall.dimension';

/**
 * The columns a MemoryRecord is read from. Not `content_key`, which toRow derives from the content:
 * each column costs a read per row (at 1M rows a text search's 40 candidates took 0.8 ms less
 * without it).
 */
export const RECORD_COLUMNS = [
  'id', 'content', 'type', 'importance', 'namespace', 'project_root', 'session_id',
  'source', 'embedder', 'created_at', 'last_seen_at', 'seen_count',
  'superseded_by', 'superseded_at', 'provenance', 'status', 'wants_to_replace',
];

/**
 * Columns added after the first release, all nullable text: a table made before them gains them
 * (as nulls) when it is opened. Append here; never reorder.
 */
export const ADDED_COLUMNS = ['superseded_by', 'superseded_at', 'provenance', 'status', 'wants_to_replace'] as const;

/** The filter that keeps a read to current memories: a replaced one stays as history only. */
export const CURRENT_ONLY = 'superseded_by IS NULL';

export type Row = Record<string, unknown>;

/** What rowsOf reads of an Arrow table (structurally: LanceDB may bring its own arrow build). */
export interface ColumnarTable {
  numRows: number;
  schema: { fields: ReadonlyArray<{ name: string }> };
  getChildAt(index: number): (Iterable<unknown> & { nullCount: number; toArray(): ArrayLike<unknown> }) | null;
}

/**
 * A query's answer as plain rows, read column by column: reading them through Arrow's row proxies
 * costs four times as much (40 rows of a text search: 0.36 ms against 0.09). A column with nulls is
 * read value by value, since a numeric one's typed array would show them as zeros.
 */
export function rowsOf(table: ColumnarTable): Row[] {
  const names = table.schema.fields.map((field) => field.name);
  const columns = names.map((_, i) => {
    const column = table.getChildAt(i);
    if (column === null) return [];
    return column.nullCount === 0 ? column.toArray() : Array.from(column);
  });
  const rows: Row[] = [];
  for (let r = 0; r < table.numRows; r += 1) {
    const row: Row = {};
    names.forEach((name, c) => (row[name] = columns[c]?.[r]));
    rows.push(row);
  }
  return rows;
}

/** A SQL string literal for LanceDB filters: single quotes doubled (backslashes are literal). */
export function sqlString(value: string): string {
  return `'${value.replace(/'/g, "''")}'`;
}

export function sqlList(values: readonly string[]): string {
  return `(${values.map(sqlString).join(', ')})`;
}

/** The SQL filter for a set of filters, or null when nothing is filtered. */
export function buildFilter(filters: MemoryFilters): string | null {
  const parts: string[] = [];
  if (filters.supersededBy !== undefined) parts.push(`superseded_by = ${sqlString(filters.supersededBy)}`);
  else if (filters.supersededSince !== undefined) parts.push(`superseded_at >= ${sqlString(filters.supersededSince.toISOString())}`);
  else if (filters.allVersions !== true) parts.push(CURRENT_ONLY);
  if (filters.quarantine === 'exclude') parts.push(`status IS NULL`);
  if (filters.quarantine === 'only') parts.push(`status = 'quarantined'`);
  if (filters.namespace !== undefined) parts.push(`namespace = ${sqlString(filters.namespace)}`);
  if (filters.namespaces !== undefined) {
    // `IN ()` is not valid SQL; an empty list matches nothing.
    parts.push(filters.namespaces.length === 0 ? 'false' : `namespace IN ${sqlList(filters.namespaces)}`);
  }
  if (filters.projectName !== undefined) parts.push(projectNamespaces(filters.projectName));
  if (filters.type !== undefined) parts.push(`type = ${sqlString(filters.type)}`);
  // created_at is always `Date#toISOString()` text, which sorts in time order.
  if (filters.since !== undefined) parts.push(`created_at >= ${sqlString(filters.since.toISOString())}`);
  return parts.length === 0 ? null : parts.join(' AND ');
}

/**
 * Every namespace of the projects named `name`: `project:<name>-` and the 8 hex digits of the project
 * root's hash, as a LIKE pattern (LanceDB counts such rows without reading them; listing the namespaces
 * first meant reading every row). `%`, `_` and `\` in the name match only themselves.
 */
function projectNamespaces(name: string): string {
  const literal = name.replace(/[\\%_]/g, (c) => `\\${c}`);
  return `namespace LIKE ${sqlString(`project:${literal}-${'_'.repeat(8)}`)} ESCAPE ${sqlString('\\')}`;
}

/** Rows after (`older`) or before (`newer`) a place in the (created_at, id) order. */
export function cursorFilter(cursor: ListCursor, side: 'older' | 'newer'): string {
  const op = side === 'older' ? '<' : '>';
  const at = sqlString(cursor.createdAt);
  return `(created_at ${op} ${at} OR (created_at = ${at} AND id ${op} ${sqlString(cursor.id)}))`;
}

export function checkVector(vector: Float32Array, dimension: number, what: string): void {
  if (vector.length !== dimension) {
    // LanceDB would silently pad or truncate a wrong-length vector; refuse it here instead.
    throw new RecallError('EMBEDDER_MISMATCH', `${what} has ${vector.length} dimensions, the store expects ${dimension}`);
  }
  if (!vector.every(Number.isFinite)) throw new RecallError('INPUT_INVALID', `${what} contains NaN or infinite values`);
}

export function toRow(r: MemoryRecord): Row {
  return {
    id: r.id, content: r.content, content_key: contentKey(r.content), type: r.type, importance: r.importance,
    namespace: r.namespace, project_root: r.projectRoot, session_id: r.sessionId, source: r.source,
    embedder: r.embedder, created_at: r.createdAt, last_seen_at: r.lastSeenAt, seen_count: r.seenCount,
    superseded_by: r.supersededBy ?? null, superseded_at: r.supersededAt ?? null,
    provenance: r.provenance ?? null, status: r.status ?? null,
    wants_to_replace: r.wantsToReplace == null || r.wantsToReplace.length === 0 ? null : r.wantsToReplace.join(','),
  };
}

export function toRecord(row: Row): MemoryRecord {
  const type = String(row.type);
  if (!isMemoryType(type)) throw new RecallError('STORE_FAILED', `memory ${String(row.id)} has unknown type ${type}`);
  return {
    id: String(row.id), content: String(row.content), type, importance: Number(row.importance),
    namespace: String(row.namespace), projectRoot: nullableString(row.project_root),
    sessionId: nullableString(row.session_id), source: String(row.source), embedder: String(row.embedder),
    createdAt: String(row.created_at), lastSeenAt: String(row.last_seen_at), seenCount: Number(row.seen_count),
    supersededBy: nullableString(row.superseded_by), supersededAt: nullableString(row.superseded_at),
    provenance: isProvenance(row.provenance) ? row.provenance : null, status: row.status === 'quarantined' ? 'quarantined' : null,
    ...(row.wants_to_replace == null || row.wants_to_replace === '' ? {} : { wantsToReplace: String(row.wants_to_replace).split(',') }),
  };
}

/** A row read with its vector column; Arrow hands the vector back as a list vector, not an array. */
export function toStoredMemory(row: Row): StoredMemory {
  return { ...toRecord(row), vector: toFloat32(row.vector) };
}

export function toFloat32(value: unknown): Float32Array {
  if (value instanceof Float32Array) return value;
  if (value !== null && typeof value === 'object' && 'toArray' in value && typeof value.toArray === 'function') {
    return Float32Array.from(value.toArray() as ArrayLike<number>);
  }
  if (Array.isArray(value)) return Float32Array.from(value as number[]);
  throw new RecallError('STORE_FAILED', 'a stored vector could not be read');
}

function nullableString(value: unknown): string | null {
  return value === null || value === undefined ? null : String(value);
}

/**
 * A library error as one line for the user: its first line, without the Rust source locations
 * (`, /usr/local/cargo/registry/.../reader.rs:581:24`) LanceDB appends, which say nothing to a user.
 */
export function describeLanceError(err: unknown): string {
  const first = err instanceof Error ? (err.message.split('\n')[0] ?? err.name) : String(err).split('\n')[0] ?? '';
  return first.replace(/,?\s*\S+\.rs:\d+:\d+/g, '').trim();
}

/** Runs one library call; anything but a RecallError becomes STORE_FAILED with the original as cause. */
export async function guard<T>(operation: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof RecallError) throw err;
    throw new RecallError('STORE_FAILED', `LanceDB ${operation} failed: ${describeLanceError(err)}`, { cause: err });
  }
}
