// `recall search` through a running `recall serve` (warm table and embedder) against the same
// search run in-process in a new process (cold), on stores of 1k and 100k memories, maintained as the
// worker maintains them (vector index past 20k rows). Each search is a
// whole `node dist/cli/main.js search ... --json` process; the arms alternate run by run.
// Usage: npm run build && node bench/search-warm.mjs [runs] [sizes, comma-separated]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildStore } from './build-store.mjs';
import { cleanEnv, median, sleep, timeRun } from './measure.mjs';
import { recordResult } from './results.mjs';

const runs = Number(process.argv[2] ?? 11);
const sizes = (process.argv[3] ?? '1000,100000').split(',').map(Number);
const cli = fileURLToPath(new URL('../dist/cli/main.js', import.meta.url));
const root = mkdtempSync(join(tmpdir(), 'recall-bench-warm-'));
const QUERY = 'how should money be stored in the database';

const rows = [];
try {
  for (const size of sizes) {
    const home = join(root, `home-${size}`);
    await buildStore(home, size, { maintain: true });
    const env = cleanEnv({ RECALL_HOME: home, RECALL_EMBEDDER: 'hash', LANCEDB_LOG: 'error' });
    timeRun(process.execPath, [cli, 'serve', '--detach'], { env });
    const bare = [];
    const warm = [];
    const cold = [];
    for (let i = 0; i < runs; i += 1) {
      bare.push(timeRun(process.execPath, ['-e', '0'], { env }).ms);
      warm.push(timeRun(process.execPath, [cli, 'search', QUERY, '--json'], { env }).ms);
      cold.push(timeRun(process.execPath, [cli, 'search', QUERY, '--json'], { env: { ...env, RECALL_NO_SERVE: '1' } }).ms);
    }
    timeRun(process.execPath, [cli, 'serve', '--stop'], { env });
    await sleep(300);
    rows.push({ memories: size, bareNodeMs: round(median(bare)), warmMs: round(median(warm)), coldMs: round(median(cold)) });
  }
} finally {
  rmSync(root, { recursive: true, force: true });
}

console.log(`recall search --json, hybrid, hash embedder; median of ${runs} runs; NODE_EXTRA_CA_CERTS unset`);
console.log('memories  bare node ms  through recall serve ms  in-process (cold) ms');
for (const r of rows) console.log(`${String(r.memories).padStart(8)}  ${String(r.bareNodeMs).padStart(12)}  ${String(r.warmMs).padStart(23)}  ${String(r.coldMs).padStart(20)}`);
recordResult('searchWarm', { runs, embedder: 'hash:384', rows });

function round(n) {
  return Math.round(n * 10) / 10;
}
