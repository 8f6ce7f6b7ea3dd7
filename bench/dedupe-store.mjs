// Dedupe + store of one capture's worth of memories (20: some new, some repeats of stored ones) into
// stores of 1k and 100k rows, in-process through the built storeMemories, median of N runs. Each store
// is maintained first as the worker would (a vector index past store.vectorIndexMinRows).
// Usage: npm run build && node bench/dedupe-store.mjs [runs] [sizes, comma-separated]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { median } from './measure.mjs';
import { recordResult } from './results.mjs';

const runs = Number(process.argv[2] ?? 7);
const sizes = (process.argv[3] ?? '1000,100000').split(',').map(Number);
const PER_CAPTURE = 20;
const BATCH = 20_000;
const dist = new URL('../dist/', import.meta.url);
const { openLanceStore } = await import(new URL('adapters/lance-store.js', dist).href);
const { createHashEmbedder } = await import(new URL('embed/hash-embedder.js', dist).href);
const { storeMemories } = await import(new URL('store/store-memories.js', dist).href);
const { configSchema } = await import(new URL('config/schema.js', dist).href);

const config = configSchema.parse({});
const embedder = createHashEmbedder();
const NAMESPACE = 'project:bench0-0000abcd';
const root = mkdtempSync(join(tmpdir(), 'recall-bench-dedupe-'));
const clock = { now: () => new Date() };

const TOPICS = ['pnpm', 'money in cents', 'migrations', 'the cache', 'CI', 'logging', 'auth tokens', 'Docker images', 'retries', 'feature flags'];
function memoryText(i) {
  return `${TOPICS[i % TOPICS.length]}: rule ${i} says to prefer option ${(i * 7919) % 997} in module ${(i * 31) % 211}.`;
}

async function buildStore(size) {
  const store = await openLanceStore(join(root, `db-${size}`));
  for (let from = 0; from < size; from += BATCH) {
    const texts = Array.from({ length: Math.min(BATCH, size - from) }, (_, k) => memoryText(from + k));
    const vectors = await embedder.embed(texts);
    await store.insert(
      texts.map((content, k) => ({
        content, type: 'preference', importance: 0.7, namespace: `project:bench${(from + k) % 5}-0000abcd`,
        projectRoot: null, sessionId: null, source: 'bench', vector: vectors[k],
      })),
      embedder.id,
    );
  }
  const report = await store.maintain({ ...config.store, pruneGraceMs: 0 });
  return { store, report };
}

/** One capture: 14 new memories and 6 that repeat stored ones word for word or nearly. */
function capture(run) {
  return Array.from({ length: PER_CAPTURE }, (_, k) => {
    const fresh = Array.from({ length: 8 }, (_, j) => `w${((run * 20 + k) * 7919 + j * 104729) % 50_021}`).join(' ');
    const content = k < 14 ? `new finding: ${fresh}.` : memoryText(k * 5 * 11);
    return { content: k % 2 === 0 && k >= 14 ? `${content} ` : content, type: 'decision', importance: 0.8 };
  });
}

const rows = [];
try {
  for (const size of sizes) {
    const built = performance.now();
    const { store, report } = await buildStore(size);
    console.error(`built ${size} in ${Math.round((performance.now() - built) / 1000)} s (vector index: ${report.vectorIndex})`);
    const times = [];
    let last;
    for (let run = 0; run < runs + 1; run += 1) {
      const origin = { namespace: NAMESPACE, projectRoot: null, sessionId: `bench-${run}`, source: 'bench' };
      const started = performance.now();
      last = await storeMemories(capture(run), origin, { embedder, store, threshold: config.dedupe.threshold, clock });
      if (run > 0) times.push(performance.now() - started); // the first run warms the table
    }
    rows.push({
      memories: size, vectorIndex: report.vectorIndex, medianMs: round(median(times)), minMs: round(Math.min(...times)),
      inserted: last.inserted.length, reinforced: last.reinforced.length, skipped: last.skipped,
    });
    await store.close();
  }
  console.log(`Dedupe + store of ${PER_CAPTURE} memories (hash embedder), median of ${runs} captures:`);
  console.log('memories  index    median ms  min ms  (inserted/reinforced/skipped)');
  for (const r of rows) {
    console.log(`${String(r.memories).padStart(8)}  ${r.vectorIndex.padEnd(7)}  ${String(r.medianMs).padStart(9)}  ${String(r.minMs).padStart(6)}  (${r.inserted}/${r.reinforced}/${r.skipped})`);
  }
  recordResult('dedupeStore', { runs, perCapture: PER_CAPTURE, embedder: embedder.id, rows });
} finally {
  rmSync(root, { recursive: true, force: true });
}

function round(n) {
  return Math.round(n * 10) / 10;
}
