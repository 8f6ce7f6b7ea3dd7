// Cold `recall search` latency: a new process per query against stores of 1k, 10k and 100k memories.
// Stores are written straight through the built store module with the hash embedder (fast, no model),
// then `node dist/cli/main.cjs search "<query>" --json` is timed as a whole process, median of N runs.
// Usage: npm run build && node bench/search-cold.mjs [runs] [sizes, comma-separated]
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildStore } from './build-store.mjs';
import { BENCH_QUERIES, CORPUS } from './corpus.mjs';
import { cleanEnv, median, timeRun, timeSearchModes } from './measure.mjs';
import { recordResult } from './results.mjs';

const runs = Number(process.argv[2] ?? BENCH_QUERIES.length);
const sizes = (process.argv[3] ?? '1000,10000,100000').split(',').map(Number);
const dist = new URL('../dist/', import.meta.url);
const cli = fileURLToPath(new URL('cli/main.cjs', dist));
const root = mkdtempSync(join(tmpdir(), 'recall-bench-search-'));

async function buildStoreIn(size) {
  const home = join(root, `home-${size}`);
  const { buildMs } = await buildStore(home, size);
  return { home, buildMs };
}

const rows = [];
try {
  const bare = [];
  for (let i = 0; i < runs; i += 1) bare.push(timeRun(process.execPath, ['-e', '0'], { env: cleanEnv() }).ms);
  for (const size of sizes) {
    const { home, buildMs } = await buildStoreIn(size);
    const row = { memories: size, buildS: round(buildMs / 1000), ...timeSearchModes({ cli, home, queries: BENCH_QUERIES, runs }) };
    rows.push(row);
    console.error(`built and measured ${size}`);
  }
  const bareMs = round(median(bare));
  console.log(`Cold \`recall search --json\` (new process each run), median of ${runs}; hash embedder; NODE_EXTRA_CA_CERTS unset.`);
  console.log(`bare \`node -e 0\`: ${bareMs} ms\n`);
  console.log('memories  hybrid ms  vector ms  text ms  (store built in s)');
  for (const r of rows) {
    console.log(`${String(r.memories).padStart(8)}  ${String(r.hybrid).padStart(9)}  ${String(r.vector).padStart(9)}  ${String(r.text).padStart(7)}  (${r.buildS})`);
  }
  const lancedb = JSON.parse(readFileSync(new URL('../node_modules/@lancedb/lancedb/package.json', import.meta.url), 'utf8')).version;
  recordResult('searchCold', { runs, corpus: CORPUS, queries: BENCH_QUERIES, embedder: 'hash:384', lancedb, bareNodeMedianMs: bareMs, rows });
} finally {
  rmSync(root, { recursive: true, force: true });
}

function round(n) {
  return Math.round(n * 10) / 10;
}
