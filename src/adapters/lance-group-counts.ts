/**
 * Rows per namespace and type, read from the two columns alone, batch by batch, and counted on their
 * bytes: each row's two values are hashed where they lie in the batch's buffers and compared byte for
 * byte with the groups of that hash, so no string is made per row. At 100k rows in a fresh process
 * this took 30 ms of CPU against 60-70 ms for a latin1 string per value (and at 1M rows the strings
 * already beat row objects: 0.8-0.9 s against 3.0 s).
 */
import type { Table } from '@lancedb/lancedb';
import { RecallError } from '../core/errors.js';
import type { GroupCount } from '../core/ports.js';
import { guard } from './lance-rows.js';

/** What a string column looks like from here (structurally: LanceDB may bring its own arrow build). */
export interface StringColumn {
  get(index: number): unknown;
  data: ReadonlyArray<{ offset: number; nullCount: number; values: unknown; valueOffsets: unknown }>;
}

/** A string column as its UTF-8 bytes and where each row's value starts (row i: offsets[i] to offsets[i + 1]). */
export interface ByteColumn {
  bytes: Uint8Array;
  offsets: Int32Array;
}

interface Group {
  namespace: Uint8Array;
  type: Uint8Array;
  count: number;
}

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 16777619;
/** Mixed in between a row's namespace and type, so ("ab", "c") and ("a", "bc") hash apart. */
const SEPARATOR = 0x100;

export async function queryGroupCounts(t: Table): Promise<GroupCount[]> {
  const groups = new Map<number, Group[]>();
  const batches = t.query().select(['namespace', 'type'])[Symbol.asyncIterator]();
  for (;;) {
    const next = await guard('count groups', () => batches.next());
    if (next.done) break;
    const batch = next.value;
    tallyRows(groups, byteColumn(batch.getChild('namespace'), batch.numRows), byteColumn(batch.getChild('type'), batch.numRows), batch.numRows);
  }
  const decode = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
  return [...groups.values()]
    .flat()
    .map((g) => ({ namespace: decode(g.namespace), type: decode(g.type), count: g.count }))
    .sort((a, b) => a.namespace.localeCompare(b.namespace) || a.type.localeCompare(b.type));
}

/**
 * Adds `rows` rows to their groups (one loop over plain typed arrays, which V8 optimises within the
 * first batch of a fresh process). Exported for its test.
 */
export function tallyRows(groups: Map<number, Group[]>, namespaces: ByteColumn, types: ByteColumn, rows: number): void {
  const nb = namespaces.bytes;
  const no = namespaces.offsets;
  const tb = types.bytes;
  const to = types.offsets;
  for (let i = 0; i < rows; i += 1) {
    const n0 = no[i]!;
    const n1 = no[i + 1]!;
    const t0 = to[i]!;
    const t1 = to[i + 1]!;
    const h = pairHash(nb, n0, n1, tb, t0, t1);
    const same = groups.get(h);
    let group: Group | undefined;
    if (same !== undefined) {
      for (const g of same) {
        if (sameBytes(nb, n0, n1, g.namespace) && sameBytes(tb, t0, t1, g.type)) {
          group = g;
          break;
        }
      }
    }
    if (group === undefined) {
      group = { namespace: nb.slice(n0, n1), type: tb.slice(t0, t1), count: 0 };
      if (same === undefined) groups.set(h, [group]);
      else same.push(group);
    }
    group.count += 1;
  }
}

/** FNV-1a over a row's namespace bytes, a separator and its type bytes (exported for its test). */
export function pairHash(nb: Uint8Array, n0: number, n1: number, tb: Uint8Array, t0: number, t1: number): number {
  let h = FNV_OFFSET;
  for (let j = n0; j < n1; j += 1) h = Math.imul(h ^ nb[j]!, FNV_PRIME);
  h = Math.imul(h ^ SEPARATOR, FNV_PRIME);
  for (let j = t0; j < t1; j += 1) h = Math.imul(h ^ tb[j]!, FNV_PRIME);
  return h;
}

function sameBytes(bytes: Uint8Array, from: number, to: number, other: Uint8Array): boolean {
  if (to - from !== other.length) return false;
  for (let j = 0; j < other.length; j += 1) if (bytes[from + j] !== other[j]) return false;
  return true;
}

/**
 * The column's own buffers when it is a plain Utf8 column of one chunk without nulls (as LanceDB hands
 * these over); anything else (sliced, large offsets, nulls: a null reads as "null") is encoded value by
 * value into buffers of the same shape. Exported for its test.
 */
export function byteColumn(column: StringColumn | null, rows: number): ByteColumn {
  if (column === null) throw new RecallError('STORE_FAILED', 'a column is missing from the memories table');
  const [data, ...more] = column.data;
  if (data !== undefined && more.length === 0 && data.offset === 0 && data.nullCount === 0 && data.values instanceof Uint8Array && data.valueOffsets instanceof Int32Array) {
    return { bytes: data.values, offsets: data.valueOffsets };
  }
  const values = Array.from({ length: rows }, (_, i) => Buffer.from(String(column.get(i)), 'utf8'));
  const offsets = new Int32Array(rows + 1);
  for (let i = 0; i < rows; i += 1) offsets[i + 1] = offsets[i]! + values[i]!.length;
  return { bytes: Buffer.concat(values), offsets };
}
