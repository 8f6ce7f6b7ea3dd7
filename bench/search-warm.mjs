// `recall search` through a running `recall serve` (warm table and embedder) against the same
// search run in-process in a new process (cold), on stores of 1k, 100k and 1M memories, maintained as
// the worker maintains them (vector index past 20k rows). Each search is a whole
// `node dist/cli/main.cjs search ... --json` process; bare `node -e 0`, warm and cold take turns run
// by run, so load from other work on the machine hits them alike; run i asks question i of
// BENCH_QUERIES (corpus.mjs), in turn. Before timing, warm and cold must agree on every question:
// exactly in vector mode, and on the scores to six places in text mode (LanceDB's full-text search
// picks among memories with tied BM25 scores in no fixed order, so even two in-process runs can list
// other ids, and two near-ties at 1M rows were seen to differ in the eighth place).
// Also times the served request alone, from connect to answer, in a new process that has already
// loaded the client (the whole `recall search` adds node's start and the client's modules).
// Usage: node bench/search-warm.mjs [runs] [sizes]
// BENCH_STORE_CACHE=<dir> keeps the built stores there for the next run (see buildOrReuseStore).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildOrReuseStore, cleanEnv, median, sleep, timeRun } from './measure.mjs';
import { recordResult } from './results.mjs';
import { BENCH_QUERIES, CORPUS } from './corpus.mjs';

// Four times each question: bare node alone moves by 20 ms from run to run on a small shared machine,
// and a median of 16 runs moved by several ms from one run of the benchmark to the next.
const runs = Number(process.argv[2] ?? 4 * BENCH_QUERIES.length);
const sizes = (process.argv[3] ?? '1000,10000,19000,50000,100000,1000000').split(',').map(Number);
const cli = fileURLToPath(new URL('../dist/cli/main.cjs', import.meta.url));
const root = mkdtempSync(join(tmpdir(), 'recall-bench-warm-'));
const serveClient = new URL('../dist/serve-client/serve-client.js', import.meta.url).href;
/** Prints the ms from connect to answer of one served `recall search "$BENCH_QUERY" --json`. */
const ROUND_TRIP = `
const { requestDaemon, serveSocketPath } = await import(${JSON.stringify(serveClient)});
const request = { v: 1, argv: ['search', process.env.BENCH_QUERY, '--json'], cwd: process.cwd(), columns: null, isTTY: false, noColor: false };
const started = performance.now();
const answer = await requestDaemon(serveSocketPath(process.env.RECALL_HOME), request);
if (answer === null || answer.exitCode !== 0) process.exit(1);
console.log(performance.now() - started);`;

const rows = [];
try {
  for (const size of sizes) {
    console.error(`building ${size}`);
    const { home, cached } = buildOrReuseStore(join(root, `home-${size}`), size, { maintain: true });
    // Let the writeback of the new store (1.5 GB at 1M) finish before timing anything.
    spawnSync('sync');
    await sleep(2_000);
    const env = cleanEnv({ RECALL_HOME: home, RECALL_EMBEDDER: 'hash', LANCEDB_LOG: 'error' });
    timeRun(process.execPath, [cli, 'serve', '--detach'], { env });
    checkSameResults(env, size);
    const bare = [];
    const warm = [];
    const cold = [];
    const roundTrip = [];
    try {
      for (let i = 0; i < runs; i += 1) {
        const query = BENCH_QUERIES[i % BENCH_QUERIES.length];
        bare.push(timeRun(process.execPath, ['-e', '0'], { env }).ms);
        const served = timeRun(process.execPath, [cli, 'search', query, '--json'], { env });
        const alone = timeRun(process.execPath, [cli, 'search', query, '--json'], { env: { ...env, RECALL_NO_SERVE: '1' } });
        warm.push(served.ms);
        cold.push(alone.ms);
        roundTrip.push(Number(timeRun(process.execPath, ['--input-type=module', '-e', ROUND_TRIP], { env: { ...env, BENCH_QUERY: query } }).stdout));
      }
    } finally {
      timeRun(process.execPath, [cli, 'serve', '--stop'], { env });
      await sleep(300);
      if (!cached) rmSync(home, { recursive: true, force: true });
    }
    const row = { memories: size, bareNodeMs: round(median(bare)), warmMs: round(median(warm)), coldMs: round(median(cold)), warmOverBareMs: round(median(warm) - median(bare)), roundTripMs: round(median(roundTrip)), bareRangeMs: range(bare), warmRangeMs: range(warm) };
    console.error(`measured ${size}: ${JSON.stringify(row)}`);
    rows.push(row);
  }
} finally {
  rmSync(root, { recursive: true, force: true });
}

console.log(`recall search --json, hybrid, hash embedder, ${CORPUS} corpus; median of ${runs} runs over ${BENCH_QUERIES.length} questions; NODE_EXTRA_CA_CERTS unset`);
console.log('memories  bare node ms  through recall serve ms  (over bare)  connect to answer ms  in-process (cold) ms  bare range  warm range');
for (const r of rows) {
  console.log(`${String(r.memories).padStart(8)}  ${String(r.bareNodeMs).padStart(12)}  ${String(r.warmMs).padStart(23)}  ${`(+${r.warmOverBareMs})`.padStart(11)}  ${String(r.roundTripMs).padStart(20)}  ${String(r.coldMs).padStart(20)}  ${r.bareRangeMs.join('-').padStart(10)}  ${r.warmRangeMs.join('-')}`);
}
recordResult('searchWarm', { runs, corpus: CORPUS, queries: BENCH_QUERIES, embedder: 'hash:384', rows });

/** The daemon prints what the in-process search prints (text mode: the same scores to six places; ties may swap ids). */
function checkSameResults(env, size) {
  for (const query of BENCH_QUERIES) {
    for (const [mode, view] of [['vector', (hits) => hits], ['text', (hits) => hits.map((h) => h.score.toFixed(6))]]) {
      const args = [cli, 'search', query, '--json', '--mode', mode];
      const served = JSON.parse(timeRun(process.execPath, args, { env }).stdout);
      const alone = JSON.parse(timeRun(process.execPath, args, { env: { ...env, RECALL_NO_SERVE: '1' } }).stdout);
      if (alone.length === 0 || JSON.stringify(view(served)) !== JSON.stringify(view(alone))) {
        throw new Error(`at ${size}: recall serve answered "${query}" differently from the in-process search (${mode} mode)`);
      }
    }
  }
}

function round(n) {
  return Math.round(n * 10) / 10;
}

function range(values) {
  return [round(Math.min(...values)), round(Math.max(...values))];
}
