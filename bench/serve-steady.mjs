// `recall serve` over many searches: the threads and memory (RSS) of the daemon and its store host
// (the child process that reads LanceDB and is replaced past serve.storeHostThreads threads), sampled as
// the searches go, so a climb shows. Builds a store of SIZE memories (hash embedder, the worker's upkeep;
// reused between runs with BENCH_STORE_CACHE, or from a given home), starts `recall serve --detach` in a
// fresh state dir pointed at that store (store.uri, so the cached store is only read), and sends SEARCHES
// served `recall search <query> --json` requests over its socket, one after another with varied queries
// (a third scoped to one of 20 projects), sampling /proc every SEARCHES/50 requests (Linux).
// With BASELINE > 0 a daemon with the store in its own process (serve.storeHostThreads 0) answers
// BASELINE searches first, in the same run, for comparison.
//   node bench/serve-steady.mjs [searches=100000] [size=100000] [store home] [baseline=0]
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { buildOrReuseStore } from './measure.mjs';
import { recordResult } from './results.mjs';

const searches = Number(process.argv[2] ?? 100_000);
const size = Number(process.argv[3] ?? 100_000);
const given = process.argv[4] || undefined;
const baseline = Number(process.argv[5] ?? 0);
const cli = fileURLToPath(new URL('../dist/cli/main.js', import.meta.url));
const { requestDaemon, serveSocketPath, pingDaemon } = await import(new URL('../dist/serve-client/serve-client.js', import.meta.url).href);
const { CORPUS, nearText } = await import('./corpus.mjs');
const { DEFAULT_HOST_THREAD_CAP } = await import(new URL('../dist/app/hosted-store.js', import.meta.url).href);

let storeHome = given;
let ownStore = false;
if (storeHome === undefined || !existsSync(join(storeHome, 'db'))) {
  const home = storeHome ?? mkdtempSync(join(tmpdir(), 'recall-serve-steady-store-'));
  console.error(`store of ${size} memories (built unless cached) ...`);
  const built = buildOrReuseStore(home, size, { maintain: true });
  storeHome = built.home;
  ownStore = given === undefined && !built.cached;
}

// LANCE_*, TOKIO_* and RECALL_SERVE_* variables in the bench's environment go to the daemon, to compare settings.
const tuning = Object.fromEntries(Object.entries(process.env).filter(([name]) => /^(LANCE|TOKIO|RECALL_SERVE)_/.test(name)));

/** The pids of a process and all its descendants (/proc/<pid>/task/<tid>/children). */
function tree(pid) {
  const pids = [pid];
  for (let i = 0; i < pids.length; i += 1) {
    let tasks = [];
    try {
      tasks = readdirSync(`/proc/${pids[i]}/task`);
    } catch {
      continue;
    }
    for (const task of tasks) {
      try {
        pids.push(...readFileSync(`/proc/${pids[i]}/task/${task}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number));
      } catch {
        // Gone meanwhile.
      }
    }
  }
  return pids;
}

function statusOf(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const field = (name) => Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? 0);
    return { threads: field('Threads'), rssKB: field('VmRSS') };
  } catch {
    return { threads: 0, rssKB: 0 };
  }
}

/** Threads and RSS of the daemon, of its store host(s), and of both together. */
function sample(pid, done) {
  const [daemon, ...children] = tree(pid).map(statusOf);
  const hosts = children.reduce((sum, s) => ({ threads: sum.threads + s.threads, rssKB: sum.rssKB + s.rssKB }), { threads: 0, rssKB: 0 });
  const mb = (kb) => Math.round(kb / 1024);
  return {
    searches: done, threads: daemon.threads + hosts.threads, rssMB: mb(daemon.rssKB + hosts.rssKB),
    daemonThreads: daemon.threads, hostThreads: hosts.threads, hosts: children.length, daemonRssMB: mb(daemon.rssKB), hostRssMB: mb(hosts.rssKB),
  };
}

/** Starts a daemon (with `settings`), answers `count` searches, stops it; its samples and speed. */
async function run(count, settings) {
  const home = mkdtempSync(join(tmpdir(), 'recall-serve-steady-'));
  const env = {
    PATH: process.env.PATH, HOME: process.env.HOME, RECALL_HOME: home, RECALL_STORE_URI: join(storeHome, 'db'),
    RECALL_EMBEDDER: 'hash', RECALL_HOOK_SPAWN: '0', LANCEDB_LOG: 'error', ...tuning, ...settings,
  };
  execFileSync(process.execPath, [cli, 'serve', '--detach'], { env, stdio: 'ignore' });
  const socket = serveSocketPath(home);
  const pid = (await pingDaemon(socket, 30_000))?.pid;
  if (!pid) throw new Error('recall serve did not answer');
  const samples = [sample(pid, 0)];
  const every = Math.max(1, Math.floor(count / 50));
  const load = [loadavg()[0]];
  let failed = 0;
  const started = performance.now();
  try {
    for (let i = 1; i <= count; i += 1) {
      const argv = ['search', nearText((i * 7919) % size), '--json', ...(i % 3 === 0 ? ['--namespace', `project:bench${i % 20}-0000abcd`] : [])];
      const answer = await requestDaemon(socket, { v: 1, argv, cwd: home, columns: null, isTTY: false, noColor: true });
      if (answer === null || answer.exitCode !== 0) failed += 1;
      if (i % every === 0) {
        const last = sample(pid, i);
        samples.push(last);
        load.push(loadavg()[0]);
        console.error(`  ${i} searches: ${last.threads} threads (daemon ${last.daemonThreads}, ${last.hosts} host(s) ${last.hostThreads}), ${last.rssMB} MB; load ${loadavg()[0].toFixed(1)}`);
      }
    }
  } finally {
    try {
      execFileSync(process.execPath, [cli, 'serve', '--stop'], { env, stdio: 'ignore' });
    } catch {
      // Gone already.
    }
  }
  const ms = performance.now() - started;
  const log = existsSync(join(home, 'recall.log')) ? readFileSync(join(home, 'recall.log'), 'utf8') : '';
  rmSync(home, { recursive: true, force: true });
  return { ms, samples, failed, load, hostReplacements: (log.match(/replacing the store host/g) ?? []).length };
}

/** The figures of one run: first (after the first interval), last, max, and growth in the second half. */
function summarize({ ms, samples, failed, load, hostReplacements }, count) {
  const taken = samples.slice(1);
  const half = taken.slice(Math.floor(taken.length / 2));
  const firstHalf = taken.slice(0, Math.floor(taken.length / 2));
  const max = (list, key) => Math.max(...list.map((s) => s[key]));
  const of = (key) => ({
    first: taken[0]?.[key], last: taken.at(-1)?.[key], max: max(taken, key),
    // How far the second half's highest rose above the first half's: a leak keeps raising it.
    secondHalfGrowth: half.length > 0 && firstHalf.length > 0 ? max(half, key) - max(firstHalf, key) : null,
    secondHalfRange: half.length > 0 ? [Math.min(...half.map((s) => s[key])), max(half, key)] : null,
  });
  return {
    searches: count, failed, msPerSearch: +(ms / count).toFixed(2), searchesPerSecond: +((count * 1000) / ms).toFixed(1),
    minutes: +(ms / 60_000).toFixed(1), loadAverage: { start: +load[0].toFixed(1), max: +Math.max(...load).toFixed(1), end: +load.at(-1).toFixed(1) },
    // Samples taken while a replacement host was starting beside the old one (both counted).
    samplesWithTwoHosts: taken.filter((s) => s.hosts > 1).length,
    threads: of('threads'), rssMB: of('rssMB'), daemonThreads: of('daemonThreads'), hostThreads: of('hostThreads'), hostReplacements, samples,
  };
}

const before = baseline > 0 ? summarize(await run(baseline, { RECALL_SERVE_STORE_HOST_THREADS: '0' }), baseline) : null;
const now = summarize(await run(searches, {}), searches);
if (ownStore) rmSync(storeHome, { recursive: true, force: true });
const cap = Number(tuning.RECALL_SERVE_STORE_HOST_THREADS ?? DEFAULT_HOST_THREAD_CAP);
const figures = {
  searches, size, corpus: CORPUS, hostThreadCap: cap, failed: now.failed, msPerSearch: now.msPerSearch, searchesPerSecond: now.searchesPerSecond,
  threads: now.threads, rssMB: now.rssMB, secondHalfThreadGrowth: now.threads.secondHalfGrowth, secondHalfRssGrowthMB: now.rssMB.secondHalfGrowth,
  run: now, baseline: before === null ? null : { ...before, storeIn: 'daemon (serve.storeHostThreads 0)' },
};
console.log(JSON.stringify({ ...figures, run: { ...now, samples: undefined }, baseline: before === null ? null : { ...before, samples: undefined } }));
recordResult('serveSteady', figures);
