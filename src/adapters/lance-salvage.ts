/**
 * Finding and recovering from damage inside a local memory table: a data file that no longer reads
 * (cut short, overwritten) and a full-text index that no longer loads. Rows are read fragment by
 * fragment through their row addresses (`_rowaddr`: the fragment id in the high 32 bits), which
 * LanceDB uses to skip the other fragments, so the rows of every intact fragment can be read even
 * while one data file is unreadable.
 */
import type { Connection, Table } from '@lancedb/lancedb';
import type { Table as ArrowTable } from 'apache-arrow';
import { ensureFtsIndex, type LanceModule } from './lance-tables.js';

/**
 * Fragment ids searched: [0, 2^31). A row address is a u64 but LanceDB reads the literals in a filter
 * as i64, so the top range is left open above instead of naming 2^63.
 */
const FRAGMENT_IDS = 2 ** 31;
/** Queries one search may make before giving up: finding each damaged fragment takes about 62. */
const MAX_QUERIES = 20_000;
/** Rows read back whole at a time while rewriting. */
const TAKE_BATCH = 1_000;
/** A word for the text-index probe: any term works, the index is loaded either way. */
const PROBE_TERM = 'recall';

export interface TableHealth {
  /** Rows the table's manifest counts. */
  rows: number;
  /** Fragments whose data files cannot be read; their rows are lost unless restored from a backup. */
  damagedFragments: number[];
  /** Rows that can still be read. */
  readableRows: number;
  textIndex: 'ok' | 'damaged' | 'none';
}

interface Readable {
  /** Row ids (`_rowid`) of the rows whose ids could be read. */
  rowIds: bigint[];
  damaged: number[];
}

/**
 * Finds the fragments whose rows cannot be read, splitting the range of fragment ids around the ones
 * that fail. Only `id` (a string column) is read here: with it LanceDB skips fragments outside the
 * range, which it does not do for every column kind (a numeric column made it open them all).
 */
function readFragments(t: Table): Promise<Readable> {
  let queries = 0;
  const read = async (from: number, to: number): Promise<Readable> => {
    if ((queries += 1) > MAX_QUERIES) throw new Error(`gave up after ${MAX_QUERIES} reads looking for the damaged data files`);
    try {
      const upper = to >= FRAGMENT_IDS ? '' : ` AND _rowaddr < ${BigInt(to) << 32n}`;
      const part = (await t.query().where(`_rowaddr >= ${BigInt(from) << 32n}${upper}`).select(['id']).withRowId().toArrow()) as unknown as ArrowTable;
      const ids = part.getChild('_rowid');
      return { rowIds: ids === null ? [] : (Array.from(ids) as bigint[]), damaged: [] };
    } catch {
      if (to - from === 1) return { rowIds: [], damaged: [from] };
      const middle = from + Math.floor((to - from) / 2);
      const low = await read(from, middle);
      const high = await read(middle, to);
      return { rowIds: [...low.rowIds, ...high.rowIds], damaged: [...low.damaged, ...high.damaged] };
    }
  };
  return read(0, FRAGMENT_IDS);
}

/** Whole rows by row id, in batches; a batch that fails is split until the rows that cannot be read are found. */
async function takeReadable(t: Table, rowIds: readonly bigint[]): Promise<ArrowTable[]> {
  if (rowIds.length === 0) return [];
  if (rowIds.length > TAKE_BATCH) {
    const parts: ArrowTable[] = [];
    for (let i = 0; i < rowIds.length; i += TAKE_BATCH) parts.push(...(await takeReadable(t, rowIds.slice(i, i + TAKE_BATCH))));
    return parts;
  }
  try {
    return [(await t.takeRowIds([...rowIds]).toArrow()) as unknown as ArrowTable];
  } catch {
    if (rowIds.length === 1) return [];
    const middle = Math.floor(rowIds.length / 2);
    return [...(await takeReadable(t, rowIds.slice(0, middle))), ...(await takeReadable(t, rowIds.slice(middle)))];
  }
}

/** Reads the table's ids (and, with a text index, runs one text search) to find damage. */
export async function inspectTable(t: Table): Promise<TableHealth> {
  const rows = await t.countRows();
  let damagedFragments: number[] = [];
  let readableRows = rows;
  try {
    await t.query().select(['id']).toArrow();
  } catch {
    const found = await readFragments(t);
    damagedFragments = found.damaged;
    readableRows = found.rowIds.length;
  }
  return { rows, damagedFragments, readableRows, textIndex: await probeTextIndex(t) };
}

async function probeTextIndex(t: Table): Promise<TableHealth['textIndex']> {
  const indices = await t.listIndices();
  const fts = indices.find((index) => index.indexType === 'FTS' && index.columns.includes('content'));
  if (fts === undefined) return 'none';
  try {
    await t.indexStats(fts.name);
    await t.search(PROBE_TERM, 'fts').select(['id']).limit(1).toArray();
    return 'ok';
  } catch {
    return 'damaged';
  }
}

/**
 * Rewrites the table from the rows that can still be read, as a new version holding only them (the
 * damaged data files are then no longer part of the table), and builds its text index again.
 * Returns the rows kept.
 */
export async function rewriteFromReadable(lancedb: LanceModule, conn: Connection, t: Table, name: string): Promise<{ table: Table; kept: number }> {
  const schema = await t.schema();
  const { rowIds } = await readFragments(t);
  const parts = await takeReadable(t, rowIds);
  const fresh = await conn.createEmptyTable(name, schema, { mode: 'overwrite' });
  let kept = 0;
  for (const part of parts) {
    await fresh.add(part as never);
    kept += part.numRows;
  }
  await ensureFtsIndex(lancedb, fresh);
  return { table: fresh, kept };
}
