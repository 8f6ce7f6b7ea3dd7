// Cold `recall search` at scale: stores of 1k, 100k and 1M memories, each maintained as the worker does
// after a capture (vector index past store.vectorIndexMinRows, text index current, versions compacted),
// then `node dist/cli/main.cjs search "<query>" --json` timed as a whole new process, median of N runs.
// Also checks the top vector hit with the index against an exact (flat) search on a few queries.
// Usage: npm run build && node bench/search-scale.mjs [runs] [sizes, comma-separated]
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildStoreInChild, cleanEnv, median, timeRun, timeSearchModes } from './measure.mjs';
import { recordResult } from './results.mjs';
import { BENCH_QUERIES, CORPUS } from './corpus.mjs';

const runs = Number(process.argv[2] ?? BENCH_QUERIES.length);
const sizes = (process.argv[3] ?? '1000,100000,1000000').split(',').map(Number);
const dist = new URL('../dist/', import.meta.url);
const cli = fileURLToPath(new URL('cli/main.cjs', dist));

const root = mkdtempSync(join(tmpdir(), 'recall-bench-scale-'));

function buildStoreIn(size) {
  const home = join(root, `home-${size}`);
  return { home, ...buildStoreInChild(home, size, { maintain: true, checkFlat: true }) };
}

const rows = [];
let built = null;
try {
  const bare = [];
  for (let i = 0; i < runs; i += 1) bare.push(timeRun(process.execPath, ['-e', '0'], { env: cleanEnv() }).ms);
  for (const size of sizes) {
    console.error(`building ${size}`);
    built = buildStoreIn(size);
    const { home, buildMs, maintainMs, report, agreement } = built;
    const row = {
      memories: size, buildS: round(buildMs / 1000), maintainS: round(maintainMs / 1000),
      vectorIndex: report.vectorIndex, top1SameAsFlat: agreement, ...timeSearchModes({ cli, home, queries: BENCH_QUERIES, runs }),
    };
    rows.push(row);
    console.error(`measured ${size}: ${JSON.stringify(row)}`);
    rmSync(home, { recursive: true, force: true });
  }
  const bareMs = round(median(bare));
  console.log(`Cold \`recall search --json\` at scale (new process each run), median of ${runs}; hash embedder; vector index from ${built.policy.vectorIndexMinRows} rows.`);
  console.log(`bare \`node -e 0\`: ${bareMs} ms\n`);
  console.log('memories  hybrid ms  vector ms  text ms  index    top-1 = flat  (built s, maintained s)');
  for (const r of rows) {
    console.log(`${String(r.memories).padStart(8)}  ${String(r.hybrid).padStart(9)}  ${String(r.vector).padStart(9)}  ${String(r.text).padStart(7)}  ${r.vectorIndex.padEnd(7)}  ${r.top1SameAsFlat.padStart(12)}  (${r.buildS}, ${r.maintainS})`);
  }
  const lancedbVersion = JSON.parse(readFileSync(new URL('../node_modules/@lancedb/lancedb/package.json', import.meta.url), 'utf8')).version;
  recordResult('searchScale', { runs, corpus: CORPUS, queries: BENCH_QUERIES, embedder: built.embedder, lancedb: lancedbVersion, policy: built.policy, bareNodeMedianMs: bareMs, rows });
} finally {
  rmSync(root, { recursive: true, force: true });
}

function round(n) {
  return Math.round(n * 10) / 10;
}
