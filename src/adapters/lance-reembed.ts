/**
 * Re-embedding for the LanceDB store. New vectors go to a separate table, `memories_reindex`, batch by
 * batch, so an interrupted run resumes where it stopped. The swap rewrites `memories` in one commit
 * (LanceDB OSS cannot rename tables, but an overwrite is a single new version): readers see either
 * every old vector with the old embedder id or every new vector with the new one, never a mix.
 */
import type { Connection, Table } from '@lancedb/lancedb';
import { RecallError } from '../core/errors.js';
import { contentKey } from '../core/memory.js';
import type { StagedVector } from '../core/ports.js';
import { STAGING_TABLE, TABLE, checkVector, guard, toFloat32, toRow } from './lance-rows.js';
import type { Row } from './lance-rows.js';
import { queryRows } from './lance-search.js';
import { ensureFtsIndex, memorySchema, readEmbedderInfo, stagingSchema } from './lance-tables.js';
import type { ArrowModule, LanceModule } from './lance-tables.js';

export interface ReembedContext {
  lancedb: LanceModule;
  arrow: ArrowModule;
  conn: Connection;
  dir: string;
}

async function openStaging(ctx: ReembedContext): Promise<Table | null> {
  const names = await guard('list tables', () => ctx.conn.tableNames());
  return names.includes(STAGING_TABLE) ? guard('open the staging table', () => ctx.conn.openTable(STAGING_TABLE)) : null;
}

/** Staging made for `embedder`, or null; staging left by another embedder is dropped. */
async function stagingFor(ctx: ReembedContext, embedder: string): Promise<Table | null> {
  const staging = await openStaging(ctx);
  if (staging === null) return null;
  const info = await readEmbedderInfo(ctx.arrow, staging, `${STAGING_TABLE} in ${ctx.dir}`);
  if (info.embedder === embedder) return staging;
  staging.close();
  await guard('drop the staging table', () => ctx.conn.dropTable(STAGING_TABLE));
  return null;
}

export async function readStagedKeys(ctx: ReembedContext, embedder: string): Promise<Map<string, string>> {
  const staging = await stagingFor(ctx, embedder);
  if (staging === null) return new Map();
  const rows = await guard('read the staging table', () => staging.query().select(['id', 'content_key']).toArray());
  return new Map(rows.map((row: Row) => [String(row.id), String(row.content_key)]));
}

export async function addStaged(ctx: ReembedContext, embedder: string, vectors: readonly StagedVector[]): Promise<void> {
  const first = vectors[0];
  if (first === undefined) return;
  const dimension = first.vector.length;
  vectors.forEach((v, i) => checkVector(v.vector, dimension, `staged vector ${i}`));
  const staging =
    (await stagingFor(ctx, embedder)) ??
    (await guard('create the staging table', () =>
      ctx.conn.createEmptyTable(STAGING_TABLE, stagingSchema(ctx.arrow, embedder, dimension), { mode: 'create', existOk: true }),
    ));
  const info = await readEmbedderInfo(ctx.arrow, staging, `${STAGING_TABLE} in ${ctx.dir}`);
  if (info.dimension !== dimension) {
    throw new RecallError('EMBEDDER_MISMATCH', `${embedder} made ${dimension}-dim vectors, the staged ones have ${info.dimension}`);
  }
  // A resumed batch may repeat ids: replace them rather than keep two vectors for one memory.
  await guard('stage vectors', () =>
    staging
      .mergeInsert('id')
      .whenMatchedUpdateAll()
      .whenNotMatchedInsertAll()
      .execute(vectors.map((v) => ({ id: v.id, content_key: v.contentKey, vector: v.vector }))),
  );
}

/**
 * Rewrites the live table with the staged vectors and the new embedder in its metadata, builds the
 * full-text index again and drops the staging. The caller holds the store lock.
 */
export async function swapInStaged(ctx: ReembedContext, live: Table | null, embedder: string): Promise<{ table: Table | null; rows: number }> {
  const staging = await stagingFor(ctx, embedder);
  if (staging === null) {
    // No rows, so no vector told us the new dimension: drop the empty table; the next write makes it anew.
    if (live !== null && (await guard('count', () => live.countRows())) === 0) {
      live.close();
      await guard('drop the empty table', () => ctx.conn.dropTable(TABLE));
      return { table: null, rows: 0 };
    }
    throw new RecallError('STORE_FAILED', `nothing is staged for ${embedder}`);
  }
  const { dimension } = await readEmbedderInfo(ctx.arrow, staging, `${STAGING_TABLE} in ${ctx.dir}`);
  const staged = new Map<string, { key: string; vector: Float32Array }>();
  const stagedRows = await guard('read the staging table', () => staging.query().select(['id', 'content_key', 'vector']).toArray());
  for (const row of stagedRows as Row[]) staged.set(String(row.id), { key: String(row.content_key), vector: toFloat32(row.vector) });

  const records = live === null ? [] : await queryRows(live, null, undefined);
  const missing = records.filter((r) => staged.get(r.id)?.key !== contentKey(r.content));
  if (missing.length > 0) {
    throw new RecallError('STORE_FAILED', `${missing.length} memories have no vector from ${embedder} yet (first: ${missing[0]?.id})`);
  }
  const rows = records.map((r) => ({ ...toRow({ ...r, embedder }), vector: staged.get(r.id)?.vector }));
  const table = await guard('swap in the new vectors', () =>
    ctx.conn.createTable(TABLE, rows, { mode: 'overwrite', schema: memorySchema(ctx.arrow, embedder, dimension) }),
  );
  await ensureFtsIndex(ctx.lancedb, table);
  staging.close();
  await guard('drop the staging table', () => ctx.conn.dropTable(STAGING_TABLE));
  return { table, rows: rows.length };
}
