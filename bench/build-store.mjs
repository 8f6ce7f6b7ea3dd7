// Builds a memory store of N memories (corpus.mjs; BENCH_CORPUS picks the corpus) through the built
// store module, with the hash embedder (fast, no model), spread over 20 project namespaces. Run as a script
// (`node bench/build-store.mjs <home> <size> [--maintain] [--check-flat]`, see buildStoreInChild in
// measure.mjs) it builds in a process of its own and prints the figures as JSON. The first rows go through the store
// (table, schema metadata and text index as a capture creates them); the rest go straight into the
// table in large batches, one commit each, without the per-write index upkeep (a capture adds ~20 rows;
// what upkeep would do comes at the end: `optimize`, or with `maintain` the worker's maintenance).
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

const dist = new URL('../dist/', import.meta.url);
const { openLanceStore } = await import(new URL('adapters/lance-store.js', dist).href);
const { createHashEmbedder } = await import(new URL('embed/hash-embedder.js', dist).href);
const { configSchema } = await import(new URL('config/schema.js', dist).href);
const { toRow } = await import(new URL('adapters/lance-rows.js', dist).href);
const lancedb = await import('@lancedb/lancedb');
const { monotonicFactory } = await import('ulid');
const { CORPUS, memoryText, nearText } = await import('./corpus.mjs');

const FIRST = 1_000;
const BATCH = 20_000;
/** The maintenance policy the worker uses by default, with no grace period for pruning old versions. */
export const BENCH_POLICY = { ...configSchema.parse({}).store, pruneGraceMs: 0 };

export const benchEmbedder = createHashEmbedder();

/** Memory `i`'s namespace: 20 projects, round robin. */
export function benchNamespace(i) {
  return `project:bench${i % 20}-0000abcd`;
}

/**
 * Writes `size` memories into `<home>/db`. With `maintain`, the store then gets the upkeep the worker
 * gives it (vector index past the configured row count, text index current, versions compacted);
 * without, one `optimize` (text index current, versions compacted). Returns the times and the
 * maintenance report.
 */
export async function buildStore(home, size, { maintain = false, onProgress = () => undefined } = {}) {
  const dbDir = join(home, 'db');
  const nextId = monotonicFactory();
  const store = await openLanceStore(dbDir);
  const started = performance.now();
  const first = Math.min(FIRST, size);
  await store.insert(await memoriesFrom(0, first), benchEmbedder.id);
  if (size > first) {
    const db = await lancedb.connect(dbDir);
    const table = await db.openTable('memories');
    const at = new Date().toISOString();
    for (let from = first; from < size; from += BATCH) {
      const batch = await memoriesFrom(from, Math.min(BATCH, size - from));
      await table.add(batch.map((m) => ({
        ...toRow({ ...m, id: nextId(), embedder: benchEmbedder.id, createdAt: at, lastSeenAt: at, seenCount: 1 }),
        vector: m.vector,
      })));
      onProgress(Math.min(from + BATCH, size), performance.now() - started);
    }
    table.close();
    db.close();
  }
  const buildMs = performance.now() - started;
  const maintained = performance.now();
  const report = maintain ? await store.maintain(BENCH_POLICY) : (await store.optimize(), null);
  const maintainMs = performance.now() - maintained;
  await store.close();
  return { dbDir, buildMs, maintainMs, report };
}

async function memoriesFrom(from, count) {
  const texts = Array.from({ length: count }, (_, k) => memoryText(from + k));
  const vectors = await benchEmbedder.embed(texts);
  return texts.map((content, k) => ({
    content, type: 'preference', importance: 0.7, namespace: benchNamespace(from + k),
    projectRoot: null, sessionId: null, source: 'bench', vector: vectors[k],
  }));
}

/**
 * Top-1 of the store's nearest() (index + refine) against LanceDB's own flat search, on near-duplicate
 * queries of 20 stored memories; returns "same/20".
 */
export async function checkAgainstFlat(home, size) {
  const dbDir = join(home, 'db');
  const store = await openLanceStore(dbDir);
  const db = await lancedb.connect(dbDir);
  const table = await db.openTable('memories');
  const probes = Array.from({ length: 20 }, (_, k) => (k * 48_271) % size);
  let same = 0;
  for (const i of probes) {
    const [vector] = await benchEmbedder.embed([nearText(i)]);
    const namespace = benchNamespace(i);
    const [hit] = await store.nearest(namespace, vector, 3);
    const [flat] = await table.vectorSearch(vector).distanceType('cosine').where(`namespace = '${namespace}'`).bypassVectorIndex().limit(1).toArray();
    if (hit?.record.id === flat?.id) same += 1;
  }
  table.close();
  db.close();
  await store.close();
  return `${same}/${probes.length}`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [home, size, ...flags] = process.argv.slice(2);
  const built = await buildStore(home, Number(size), {
    maintain: flags.includes('--maintain'),
    onProgress: (rows, ms) => {
      if (rows % 200_000 === 0) console.error(`  ${rows} rows, ${Math.round(ms / 1000)} s`);
    },
  });
  const agreement = flags.includes('--check-flat') ? await checkAgainstFlat(home, Number(size)) : null;
  console.log(JSON.stringify({ ...built, agreement, corpus: CORPUS, embedder: benchEmbedder.id, policy: BENCH_POLICY }));
}
