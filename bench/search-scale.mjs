// Cold `recall search` at scale: stores of 1k, 100k and 1M memories, each maintained as the worker does
// after a capture (vector index past store.vectorIndexMinRows, text index current, versions compacted),
// then `node dist/cli/main.js search "<query>" --json` timed as a whole new process, median of N runs.
// Also checks the top vector hit with the index against an exact (flat) search on a few queries.
// Usage: npm run build && node bench/search-scale.mjs [runs] [sizes, comma-separated]
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { cleanEnv, median, timeRun, timeSearchModes } from './measure.mjs';
import { recordResult } from './results.mjs';

const runs = Number(process.argv[2] ?? 5);
const sizes = (process.argv[3] ?? '1000,100000,1000000').split(',').map(Number);
const dist = new URL('../dist/', import.meta.url);
const cli = fileURLToPath(new URL('cli/main.js', dist));
const { openLanceStore } = await import(new URL('adapters/lance-store.js', dist).href);
const { createHashEmbedder } = await import(new URL('embed/hash-embedder.js', dist).href);
const { configSchema } = await import(new URL('config/schema.js', dist).href);
const { toRow } = await import(new URL('adapters/lance-rows.js', dist).href);
const lancedb = await import('@lancedb/lancedb');
const { monotonicFactory } = await import('ulid');
const nextId = monotonicFactory();

const POLICY = { ...configSchema.parse({}).store, pruneGraceMs: 0 };
const QUERIES = ['how should money be stored in the database', 'retry failed requests with backoff', 'rotate auth tokens'];
const BATCH = 20_000;
const embedder = createHashEmbedder();
const root = mkdtempSync(join(tmpdir(), 'recall-bench-scale-'));

const SUBJECTS = ['pnpm', 'the API', 'migrations', 'money', 'the cache', 'CI', 'logging', 'auth tokens', 'Docker images', 'tests', 'retries', 'the mobile app', 'feature flags', 'timestamps', 'error codes'];
const VERBS = ['must use', 'should prefer', 'never use', 'always run', 'store', 'validate', 'rotate', 'cache', 'log', 'retry'];
const OBJECTS = ['integer cents in a BIGINT column', 'exponential backoff', 'zod schemas', 'structured JSON', 'UTC timestamptz', 'blue-green deploys', 'short-lived JWTs', 'the pnpm store', 'opaque cursors', 'SQLite offline caches', 'E_CONNRESET handling', 'two-space indentation', 'Terraform plans', 'TestFlight builds'];
function memoryText(i) {
  const pick = (list, salt) => list[(i * 7919 + salt * 104729) % list.length];
  return `${pick(SUBJECTS, 1)}: ${pick(VERBS, 2)} ${pick(OBJECTS, 3)} (rule ${i}, see ticket ${(i * 31) % 9973}, owner dev${(i * 13) % 541}).`;
}

async function buildStore(size) {
  const home = join(root, `home-${size}`);
  const dbDir = join(home, 'db');
  const store = await openLanceStore(dbDir);
  const started = performance.now();
  const rowsFor = async (from, count) => {
    const texts = Array.from({ length: count }, (_, k) => memoryText(from + k));
    const vectors = await embedder.embed(texts);
    return texts.map((content, k) => ({
      content, type: 'preference', importance: 0.7, namespace: `project:bench${(from + k) % 20}-0000abcd`,
      projectRoot: null, sessionId: null, source: 'bench', vector: vectors[k],
    }));
  };
  // The first batch goes through the store: it creates the table, its schema and metadata, and the text index.
  const first = Math.min(1_000, size);
  await store.insert(await rowsFor(0, first), embedder.id);
  // The rest straight into the table, one commit per batch, skipping the per-write index upkeep
  // (a capture adds ~20 rows; upkeep is what the maintenance step below does).
  const db = await lancedb.connect(dbDir);
  const table = await db.openTable('memories');
  const at = new Date().toISOString();
  for (let from = first; from < size; from += BATCH) {
    const batch = await rowsFor(from, Math.min(BATCH, size - from));
    await table.add(batch.map((m) => ({
      ...toRow({ ...m, id: nextId(), embedder: embedder.id, createdAt: at, lastSeenAt: at, seenCount: 1 }),
      vector: m.vector,
    })));
    if ((from / BATCH) % 10 === 9) console.error(`  ${from + BATCH} rows, ${round((performance.now() - started) / 1000)} s`);
  }
  table.close();
  db.close();
  const buildMs = performance.now() - started;
  const maintained = performance.now();
  const report = await store.maintain(POLICY);
  const maintainMs = performance.now() - maintained;
  const agreement = await checkAgainstFlat(store, size);
  await store.close();
  return { home, buildMs, maintainMs, report, agreement };
}

/** Top-1 of the store's nearest() (index + refine) against LanceDB's own flat search, on near-duplicate queries. */
async function checkAgainstFlat(store, size) {
  const probes = Array.from({ length: 20 }, (_, k) => (k * 48_271) % size);
  let same = 0;
  const db = await lancedb.connect(join(root, `home-${size}`, 'db'));
  const table = await db.openTable('memories');
  for (const i of probes) {
    const text = memoryText(i).replace('see ticket', 'ticket');
    const [vector] = await embedder.embed([text]);
    const namespace = `project:bench${i % 20}-0000abcd`;
    const [hit] = await store.nearest(namespace, vector, 3);
    const [flat] = await table.vectorSearch(vector).distanceType('cosine').where(`namespace = '${namespace}'`).bypassVectorIndex().limit(1).toArray();
    if (hit?.record.id === flat?.id) same += 1;
  }
  table.close();
  db.close();
  return `${same}/${probes.length}`;
}

const rows = [];
try {
  const bare = [];
  for (let i = 0; i < runs; i += 1) bare.push(timeRun(process.execPath, ['-e', '0'], { env: cleanEnv() }).ms);
  for (const size of sizes) {
    console.error(`building ${size}`);
    const { home, buildMs, maintainMs, report, agreement } = await buildStore(size);
    const row = {
      memories: size, buildS: round(buildMs / 1000), maintainS: round(maintainMs / 1000),
      vectorIndex: report.vectorIndex, top1SameAsFlat: agreement, ...timeSearchModes({ cli, home, queries: QUERIES, runs }),
    };
    rows.push(row);
    console.error(`measured ${size}: ${JSON.stringify(row)}`);
    rmSync(home, { recursive: true, force: true });
  }
  const bareMs = round(median(bare));
  console.log(`Cold \`recall search --json\` at scale (new process each run), median of ${runs}; hash embedder; vector index from ${POLICY.vectorIndexMinRows} rows.`);
  console.log(`bare \`node -e 0\`: ${bareMs} ms\n`);
  console.log('memories  hybrid ms  vector ms  text ms  index    top-1 = flat  (built s, maintained s)');
  for (const r of rows) {
    console.log(`${String(r.memories).padStart(8)}  ${String(r.hybrid).padStart(9)}  ${String(r.vector).padStart(9)}  ${String(r.text).padStart(7)}  ${r.vectorIndex.padEnd(7)}  ${r.top1SameAsFlat.padStart(12)}  (${r.buildS}, ${r.maintainS})`);
  }
  const lancedbVersion = JSON.parse(readFileSync(new URL('../node_modules/@lancedb/lancedb/package.json', import.meta.url), 'utf8')).version;
  recordResult('searchScale', { runs, queries: QUERIES, embedder: embedder.id, lancedb: lancedbVersion, policy: POLICY, bareNodeMedianMs: bareMs, rows });
} finally {
  rmSync(root, { recursive: true, force: true });
}

function round(n) {
  return Math.round(n * 10) / 10;
}
