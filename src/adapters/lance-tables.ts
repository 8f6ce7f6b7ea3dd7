/**
 * Table layout for the LanceDB store: the Arrow schemas (with the embedder in the schema metadata),
 * reading that metadata back, and the full-text index on `content`.
 */
import type * as LanceNamespace from '@lancedb/lancedb';
import type { Table } from '@lancedb/lancedb';
import type * as ArrowNamespace from 'apache-arrow';
import type { Field, Schema } from 'apache-arrow';
import { RecallError } from '../core/errors.js';
import { ADDED_COLUMNS, META_DIMENSION, META_EMBEDDER, guard } from './lance-rows.js';

export type LanceModule = typeof LanceNamespace;
export type ArrowModule = typeof ArrowNamespace;

export interface EmbedderInfo {
  embedder: string;
  dimension: number;
}

/** The memories table: every record column, the vector, and the embedder in the metadata. */
export function memorySchema(arrow: ArrowModule, embedder: string, dimension: number): Schema {
  const { Utf8, Float64, Int32 } = arrow;
  const text = (name: string, nullable = false) => new arrow.Field(name, new Utf8(), nullable);
  return new arrow.Schema(
    [
      text('id'), text('content'), text('content_key'), text('type'),
      new arrow.Field('importance', new Float64(), false),
      text('namespace'), text('project_root', true), text('session_id', true), text('source'), text('embedder'),
      text('created_at'), text('last_seen_at'),
      new arrow.Field('seen_count', new Int32(), false),
      vectorField(arrow, dimension),
      ...ADDED_COLUMNS.map((name) => text(name, true)),
    ],
    embedderMetadata(embedder, dimension),
  );
}

/** The staging table of a re-embed: which text each new vector was made from, and the vector. */
export function stagingSchema(arrow: ArrowModule, embedder: string, dimension: number): Schema {
  const { Utf8 } = arrow;
  return new arrow.Schema(
    [new arrow.Field('id', new Utf8(), false), new arrow.Field('content_key', new Utf8(), false), vectorField(arrow, dimension)],
    embedderMetadata(embedder, dimension),
  );
}

function vectorField(arrow: ArrowModule, dimension: number): Field {
  const { Float32, FixedSizeList } = arrow;
  return new arrow.Field('vector', new FixedSizeList(dimension, new arrow.Field('item', new Float32(), true)), false);
}

function embedderMetadata(embedder: string, dimension: number): Map<string, string> {
  return new Map([[META_EMBEDDER, embedder], [META_DIMENSION, String(dimension)]]);
}

/**
 * The embedder recorded with a table. Read on every call (a cheap local metadata read): a re-embed in
 * another process replaces it, so a cached answer could let an old embedder's vectors in.
 */
export async function readEmbedderInfo(arrow: ArrowModule, t: Table, where: string): Promise<EmbedderInfo> {
  const schema = await guard('read schema', () => t.schema());
  const embedder = schema.metadata.get(META_EMBEDDER);
  const vectorType = schema.fields.find((f) => f.name === 'vector')?.type;
  // By type id, not instanceof: LanceDB (CommonJS) and this module may hold different arrow builds.
  const dimension = arrow.DataType.isFixedSizeList(vectorType) ? vectorType.listSize : Number.NaN;
  if (embedder === undefined || !Number.isInteger(dimension)) {
    throw new RecallError('STORE_FAILED', `table ${where} was not made by recall (no embedder metadata)`);
  }
  return { embedder, dimension };
}

/**
 * Options of the BM25 index on `content`: split on whitespace and punctuation, lower-case, fold accents,
 * English stemming and stop words; no positions (recall runs no phrase queries).
 */
function ftsIndex(lancedb: LanceModule) {
  return lancedb.Index.fts({
    baseTokenizer: 'simple',
    lowercase: true,
    asciiFolding: true,
    stem: true,
    language: 'English',
    removeStopWords: true,
    withPosition: false,
  });
}

/** LanceDB's default name for the index on `content`. */
const FTS_INDEX = 'content_idx';
/**
 * Rows added after the text index was built are scanned in full on every text search (at 100k such
 * rows: ~270 ms against ~14 ms indexed). Past this many, upkeep folds them into the index
 * (lance-index.ts); a write never does: folding rewrites the whole index, so its memory grows with the
 * store (a 1,000-line import into a 1M-row store peaked at 1 GB, 205 MB without the fold).
 */
export const MAX_UNINDEXED_TEXT_ROWS = 500;

/**
 * The most rows a write builds a missing text index over (the first write to a new table, or a small
 * table from before text search); past this, building it is upkeep's, for the same reason.
 */
export const WRITE_PATH_FTS_MAX_ROWS = 20_000;

/**
 * Makes sure `content` has its full-text index; false when the table is empty and so has none yet.
 * The index is built over rows, never over an empty table: LanceDB 0.31 scores a term found in most
 * rows outside the index at zero (and drops the match) when the index itself holds no rows.
 * Rows added after the index was built stay searchable (LanceDB scans them alongside the index)
 * until `optimize()` folds them in.
 */
export async function ensureFtsIndex(lancedb: LanceModule, t: Table): Promise<boolean> {
  const indices = await guard('list indices', () => t.listIndices());
  if (indices.some((index) => index.indexType === 'FTS' && index.columns.includes('content'))) return true;
  if ((await guard('count', () => t.countRows())) === 0) return false;
  await guard('create the full-text index', () => t.createIndex('content', { config: ftsIndex(lancedb), replace: true }));
  return true;
}

/** Builds the full-text index on `content` anew, replacing one that no longer loads (`recall repair`). */
export async function rebuildFtsIndex(lancedb: LanceModule, t: Table): Promise<void> {
  await guard('rebuild the full-text index', () => t.createIndex('content', { config: ftsIndex(lancedb), replace: true }));
}

/**
 * Loads the whole full-text index into LanceDB's index cache, unless the index is the one `warmed`
 * names. Returns what names the index now, or null when the table has no such index: its indexed
 * row count, which changes whenever an optimize folds new rows in. An index rebuilt elsewhere over
 * the same rows keeps its name and is not loaded again until the next change (only speed is lost).
 *
 * Worth it in a long-lived process only: loading takes ~0.4 s at 1M rows, and queries then skip the
 * part of each lookup that LanceDB otherwise reads afresh every time (at 1M rows, measured on
 * 2026-11-25: 7.3 ms a text search against 9.0, ~40 MB of cache). Prewarming the vector or id index
 * gained nothing measurable.
 */
export async function warmFtsIndex(t: Table, warmed: string | null): Promise<string | null> {
  const stats = await guard('read index stats', () => t.indexStats(FTS_INDEX));
  if (stats === undefined) return null;
  const name = String(stats.numIndexedRows);
  if (name !== warmed) await guard('load the full-text index', () => t.prewarmIndex(FTS_INDEX));
  return name;
}

/**
 * After a write: the text index is built if the table has none and is small enough for a write to
 * build it (WRITE_PATH_FTS_MAX_ROWS); false when it is still missing (upkeep builds it).
 */
export async function ensureFtsIndexOnWrite(lancedb: LanceModule, t: Table): Promise<boolean> {
  const indices = await guard('list indices', () => t.listIndices());
  if (indices.some((index) => index.indexType === 'FTS' && index.columns.includes('content'))) return true;
  if ((await guard('count', () => t.countRows())) > WRITE_PATH_FTS_MAX_ROWS) return false;
  return ensureFtsIndex(lancedb, t);
}

/**
 * Reads the text index's statistics (a few kB, whatever the store's size): throws when the index no
 * longer loads, so a write can say so (the rows are stored; `recall repair` rebuilds the index).
 */
export async function checkFtsIndexLoads(t: Table): Promise<void> {
  await guard('read index stats', () => t.indexStats(FTS_INDEX));
}

/**
 * Gives a table made before some of ADDED_COLUMNS those columns, as nulls, in one commit; its rows
 * are kept. Another process may add them at the same moment: when the add fails, the schema is read
 * again and only a column still missing is an error. Returns the columns added here.
 */
export async function addMissingColumns(t: Table): Promise<string[]> {
  const missing = await missingColumns(t);
  if (missing.length === 0) return [];
  try {
    await t.addColumns(missing.map((name) => ({ name, valueSql: 'CAST(NULL AS STRING)' })));
    return missing;
  } catch (err) {
    const still = await missingColumns(t);
    if (still.length === 0) return [];
    throw new RecallError('STORE_FAILED', `could not add the columns ${still.join(', ')} to the memory table`, { cause: err });
  }
}

async function missingColumns(t: Table): Promise<string[]> {
  const schema = await guard('read schema', () => t.schema());
  const have = new Set(schema.fields.map((f) => f.name));
  return ADDED_COLUMNS.filter((name) => !have.has(name));
}
