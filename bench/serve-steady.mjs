// `recall serve` over many searches: its thread count and memory (RSS) at intervals, so a leak of
// threads (a new LanceDB handle per request) or of memory shows as a climb. Builds a store of SIZE
// memories (hash embedder, with the worker's upkeep), starts `recall serve --detach`, sends SEARCHES
// served `recall search <query> --json` requests over its socket, one after another with varied
// queries, and samples /proc/<pid>/status every SEARCHES/20 requests (Linux).
//   node bench/serve-steady.mjs [searches=100000] [size=100000] [home]
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { recordResult } from './results.mjs';

const searches = Number(process.argv[2] ?? 100_000);
const size = Number(process.argv[3] ?? 100_000);
const given = process.argv[4];
const home = given ?? mkdtempSync(join(tmpdir(), 'recall-serve-steady-'));
const cli = fileURLToPath(new URL('../dist/cli/main.js', import.meta.url));
const { requestDaemon, serveSocketPath, pingDaemon } = await import(new URL('../dist/serve-client/serve-client.js', import.meta.url).href);
const { CORPUS, queryText } = await import('./corpus.mjs').then((m) => ({ CORPUS: m.CORPUS, queryText: m.nearText }));
// LANCE_* and TOKIO_* variables in the bench's environment go to the daemon, to compare runtime settings.
const tuning = Object.fromEntries(Object.entries(process.env).filter(([name]) => /^(LANCE|TOKIO)_/.test(name)));
const env = { PATH: process.env.PATH, HOME: process.env.HOME, RECALL_HOME: home, RECALL_EMBEDDER: 'hash', RECALL_HOOK_SPAWN: '0', LANCEDB_LOG: 'error', ...tuning };

if (!existsSync(join(home, 'db'))) {
  console.error(`building a store of ${size} memories in ${home} ...`);
  execFileSync(process.execPath, [fileURLToPath(new URL('./build-store.mjs', import.meta.url)), home, String(size), '--maintain'], { stdio: ['ignore', 'ignore', 'inherit'] });
}
execFileSync(process.execPath, [cli, 'serve', '--detach'], { env, stdio: 'ignore' });
const socket = serveSocketPath(home);
const pid = (await pingDaemon(socket, 10_000))?.pid;
if (!pid) throw new Error('recall serve did not answer');

function sample(done) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const field = (name) => Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? NaN);
  return { searches: done, threads: field('Threads'), rssMB: Math.round(field('VmRSS') / 1024) };
}

const samples = [sample(0)];
const every = Math.max(1, Math.floor(searches / 20));
const started = performance.now();
let failed = 0;
try {
  for (let i = 1; i <= searches; i += 1) {
    const argv = ['search', queryText(i * 7919 % size), '--json', ...(i % 3 === 0 ? ['--namespace', `project:bench${i % 20}-0000abcd`] : [])];
    const answer = await requestDaemon(socket, { v: 1, argv, cwd: home, columns: null, isTTY: false, noColor: true });
    if (answer === null || answer.exitCode !== 0) failed += 1;
    if (i % every === 0) {
      samples.push(sample(i));
      const last = samples[samples.length - 1];
      console.error(`  ${i} searches: ${last.threads} threads, ${last.rssMB} MB`);
    }
  }
} finally {
  try {
    execFileSync(process.execPath, [cli, 'serve', '--stop'], { env, stdio: 'ignore' });
  } catch {
    // Gone already.
  }
  if (given === undefined) rmSync(home, { recursive: true, force: true });
}
const ms = performance.now() - started;
const later = samples.slice(Math.floor(samples.length / 2));
const figures = {
  searches, size, corpus: CORPUS, failed,
  msPerSearch: +(ms / searches).toFixed(2),
  threads: { first: samples[1]?.threads, last: samples.at(-1).threads, max: Math.max(...samples.map((s) => s.threads)) },
  rssMB: { first: samples[1]?.rssMB, last: samples.at(-1).rssMB, max: Math.max(...samples.map((s) => s.rssMB)) },
  secondHalfThreadGrowth: later.at(-1).threads - later[0].threads,
  samples,
};
console.log(JSON.stringify(figures));
recordResult('serveSteady', figures);
