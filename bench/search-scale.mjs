// Cold `recall search` at scale: stores of 1k, 100k and 1M memories, each maintained as the worker does
// after a capture (vector index past store.vectorIndexMinRows, text index current, versions compacted),
// then `node dist/cli/main.js search "<query>" --json` timed as a whole new process, median of N runs.
// Also checks the top vector hit with the index against an exact (flat) search on a few queries.
// Usage: npm run build && node bench/search-scale.mjs [runs] [sizes, comma-separated]
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchEmbedder, BENCH_POLICY, buildStore, benchNamespace, memoryText } from './build-store.mjs';
import { cleanEnv, median, timeRun, timeSearchModes } from './measure.mjs';
import { recordResult } from './results.mjs';

const runs = Number(process.argv[2] ?? 5);
const sizes = (process.argv[3] ?? '1000,100000,1000000').split(',').map(Number);
const dist = new URL('../dist/', import.meta.url);
const cli = fileURLToPath(new URL('cli/main.js', dist));
const { openLanceStore } = await import(new URL('adapters/lance-store.js', dist).href);
const lancedb = await import('@lancedb/lancedb');

const QUERIES = ['how should money be stored in the database', 'retry failed requests with backoff', 'rotate auth tokens'];
const embedder = benchEmbedder;
const root = mkdtempSync(join(tmpdir(), 'recall-bench-scale-'));

async function buildStoreIn(size) {
  const home = join(root, `home-${size}`);
  const { dbDir, buildMs, maintainMs, report } = await buildStore(home, size, {
    maintain: true,
    onProgress: (rows, ms) => {
      if (rows % 200_000 === 0) console.error(`  ${rows} rows, ${round(ms / 1000)} s`);
    },
  });
  const store = await openLanceStore(dbDir);
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
    const namespace = benchNamespace(i);
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
    const { home, buildMs, maintainMs, report, agreement } = await buildStoreIn(size);
    const row = {
      memories: size, buildS: round(buildMs / 1000), maintainS: round(maintainMs / 1000),
      vectorIndex: report.vectorIndex, top1SameAsFlat: agreement, ...timeSearchModes({ cli, home, queries: QUERIES, runs }),
    };
    rows.push(row);
    console.error(`measured ${size}: ${JSON.stringify(row)}`);
    rmSync(home, { recursive: true, force: true });
  }
  const bareMs = round(median(bare));
  console.log(`Cold \`recall search --json\` at scale (new process each run), median of ${runs}; hash embedder; vector index from ${BENCH_POLICY.vectorIndexMinRows} rows.`);
  console.log(`bare \`node -e 0\`: ${bareMs} ms\n`);
  console.log('memories  hybrid ms  vector ms  text ms  index    top-1 = flat  (built s, maintained s)');
  for (const r of rows) {
    console.log(`${String(r.memories).padStart(8)}  ${String(r.hybrid).padStart(9)}  ${String(r.vector).padStart(9)}  ${String(r.text).padStart(7)}  ${r.vectorIndex.padEnd(7)}  ${r.top1SameAsFlat.padStart(12)}  (${r.buildS}, ${r.maintainS})`);
  }
  const lancedbVersion = JSON.parse(readFileSync(new URL('../node_modules/@lancedb/lancedb/package.json', import.meta.url), 'utf8')).version;
  recordResult('searchScale', { runs, queries: QUERIES, embedder: embedder.id, lancedb: lancedbVersion, policy: BENCH_POLICY, bareNodeMedianMs: bareMs, rows });
} finally {
  rmSync(root, { recursive: true, force: true });
}

function round(n) {
  return Math.round(n * 10) / 10;
}
