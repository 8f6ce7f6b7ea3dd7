// How fast `recall ui` answers each page over stores of N memories (build-store.mjs: hash embedder, 20
// projects, maintained as the worker's upkeep leaves a store: vector index, text index, key indexes),
// 1% of them held for review (as a capture's screen leaves them).
// Each page is timed on a `recall ui` of its own, started for it (the built bin, `ui --no-open --port 0`,
// spawn to the printed URL timed too): the trade of the printed URL's one-time code for the session cookie
// (the process's very first request, a redirect, timed too), then the page's first request (as a user
// opening a link to that page), then WARM requests more (warm).
// Pages: the memories list (first page), a hybrid search, one memory, its forget confirmation, review
// (first page, filtered by project, its second page), the next-session preview of one project, sessions
// (the jobs), Endless, health, and the last page of the memories list (by its cursor, as the "older"
// links reach it).
// With --serve, a `recall serve` runs on the same state dir for each size, so `recall ui` hosts the page
// inside the daemon (its warm table) instead of opening the table itself.
// With --baseline <dist dir> (another build of recall, e.g. the code before a change), every start
// alternates between this build and that one over the same stores, and both sets of figures are kept.
// Each request also has the CPU time the `recall ui` process spent meanwhile (/proc, every thread; its
// background work included), which moves far less than wall time on a shared machine.
// Medians over `runs` starts per page; NODE_EXTRA_CA_CERTS unset. The target: every page under 200 ms,
// first request and warm.
// The counts per project and type are kept in the state dir per table version (group-counts.json), so
// after the first start the pages' starts find them there; `afterWrite` times the case where they must be
// counted again, as after a capture: the file removed before each start (spawn to URL, code trade and the
// memories page's first request).
// BENCH_STORE_CACHE=<dir> keeps the built stores there for the next run (see buildOrReuseStore); each run
// works on a copy, since it holds some memories for review.
// Usage: npm run build && node bench/ui-first-page.mjs [runs] [sizes, e.g. 200,10000,100000] [--serve] [--baseline dir]
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildOrReuseStore, cleanEnv, median } from './measure.mjs';
import { recordResult } from './results.mjs';

const argv = process.argv.slice(2);
const baselineAt = argv.indexOf('--baseline');
const baselineDist = baselineAt >= 0 ? resolve(argv[baselineAt + 1] ?? '') : null;
const args = argv.filter((a, i) => a !== '--serve' && (baselineAt < 0 || (i !== baselineAt && i !== baselineAt + 1)));
const withServe = argv.includes('--serve');
const runs = Math.max(3, Number(args[0] ?? 3));
const sizes = String(args[1] ?? '200,10000,100000').split(',').map(Number);
const WARM = 5;
const TARGET_MS = 200;
const HELD_SHARE = 0.01;
const CLOCK_TICKS = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();
const dist = new URL('../dist/', import.meta.url);
const builds = { current: fileURLToPath(new URL('cli/main.cjs', dist)), ...(baselineDist ? { baseline: join(baselineDist, 'cli/main.cjs') } : {}) };

function startUi(cli, env) {
  return new Promise((resolveStart, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [cli, 'ui', '--no-open', '--port', '0'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let text = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk) => {
      text += chunk;
      const match = /^recall ui: (http:\/\/127\.0\.0\.1:\d+\/)\?code=([\w-]+)\n/.exec(text);
      if (match) resolveStart({ child, base: match[1], code: match[2], startMs: performance.now() - started });
    });
    child.on('exit', (code) => reject(new Error(`recall ui exited ${code} before printing its URL`)));
  });
}

/**
 * Trades the printed one-time code for the session cookie, as the browser does (the process's very first
 * request, answered with a redirect to the page); returns the token, and the trade's wall and CPU time.
 */
async function redeem(base, code, pid) {
  const cpuBefore = cpuMs(pid);
  const started = performance.now();
  const response = await fetch(`${base}?code=${code}`, { redirect: 'manual' });
  await response.arrayBuffer();
  const ms = performance.now() - started;
  const cpuAfter = cpuMs(pid);
  const match = /recall_ui_\d+=([\w-]+)/.exec(response.headers.get('set-cookie') ?? '');
  if (response.status !== 303 || match === null) throw new Error(`the one-time code was refused: ${response.status}`);
  return { token: match[1], ms, cpu: cpuBefore === null || cpuAfter === null ? null : cpuAfter - cpuBefore };
}

/**
 * The CPU time (user and system, every thread) the `recall ui` process has used, in ms; null where
 * /proc is not there. On a machine shared with other work it moves far less than wall time.
 */
function cpuMs(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return null;
  }
}

async function timeGet(base, path, token, pid) {
  const cpuBefore = pid === undefined ? null : cpuMs(pid);
  const started = performance.now();
  const response = await fetch(`${base}${path}`, { headers: { cookie: `recall_ui_${new URL(base).port}=${token}` } });
  const body = await response.text();
  const ms = performance.now() - started;
  const cpuAfter = pid === undefined ? null : cpuMs(pid);
  if (response.status !== 200) throw new Error(`GET ${path}: ${response.status} ${body.slice(0, 200)}`);
  return { ms, cpu: cpuBefore === null || cpuAfter === null ? null : cpuAfter - cpuBefore, body };
}

/**
 * Holds 1% of the memories for review, as the screen does with a capture's suspicious ones; returns
 * their count, the newest memory's id and the path of the memories list's last page (the rows older
 * than the 50 oldest's newest, as the "older" links write it).
 */
async function prepare(home, size) {
  const { openLanceStore } = await import(new URL('adapters/lance-store.js', dist).href);
  const { writeCursor } = await import(new URL('ui/memories-cursor.js', dist).href);
  const store = await openLanceStore(join(home, 'db'));
  const held = Math.max(1, Math.round(size * HELD_SHARE));
  const rows = await store.list({ limit: held * 7 });
  const ids = rows.filter((_, i) => i % 7 === 3).map((r) => r.id).slice(0, held);
  await store.setStatus(ids, 'quarantined');
  const total = await store.count({});
  const pages = Math.ceil(total / 50);
  const oldest = await store.list({ newerThan: { createdAt: '0000', id: '' }, limit: (total - (pages - 1) * 50) + 1 });
  await store.close?.();
  const lastPath = pages > 1 ? `?${new URLSearchParams({ namespace: '', type: '', page: String(pages), older: writeCursor(oldest[0]) }).toString()}` : '';
  return { held: ids.length, memoryId: rows[0].id, lastPath, pages };
}

const round = (n) => Math.round(n * 10) / 10;

/** Starts one `recall ui` for `path`: its start, first request and WARM warm requests. */
async function measurePage(cli, env, path) {
  const { child, base, code, startMs } = await startUi(cli, env);
  try {
    const { token, ...trade } = await redeem(base, code, child.pid);
    const first = await timeGet(base, path, token, child.pid);
    const warm = [];
    for (let w = 0; w < WARM; w += 1) warm.push(await timeGet(base, path, token, child.pid));
    return { startMs, trade, first, warm };
  } finally {
    child.kill('SIGTERM');
    await new Promise((done) => child.once('exit', done));
  }
}

function summarise(samples, pages) {
  const perPage = Object.fromEntries(Object.keys(pages).map((key) => [key, {
    firstMedianMs: round(median(samples[key].first)),
    warmMedianMs: round(median(samples[key].warm)),
    ...(samples[key].firstCpu.length > 0 ? { firstCpuMedianMs: round(median(samples[key].firstCpu)), warmCpuMedianMs: round(median(samples[key].warmCpu)) } : {}),
  }]));
  const slowest = (kind) => {
    const [page, figures] = Object.entries(perPage).sort((a, b) => b[1][kind] - a[1][kind])[0];
    return { page, ms: figures[kind] };
  };
  const slowestFirst = slowest('firstMedianMs');
  const slowestWarm = slowest('warmMedianMs');
  return {
    startToUrlMedianMs: round(median(samples.starts)),
    codeTradeMedianMs: round(median(samples.trades)),
    ...(samples.tradeCpu.length > 0 ? { codeTradeCpuMedianMs: round(median(samples.tradeCpu)) } : {}),
    firstPageMedianMs: perPage.memories.firstMedianMs,
    pages: perPage,
    slowestFirst,
    slowestWarm,
    met: slowestFirst.ms < TARGET_MS && slowestWarm.ms < TARGET_MS,
  };
}

async function measureSize(size) {
  const home = mkdtempSync(join(tmpdir(), 'recall-bench-ui-'));
  try {
    const built = buildOrReuseStore(join(home, 'build'), size, { maintain: true });
    cpSync(join(built.home, 'db'), join(home, 'db'), { recursive: true });
    if (!built.cached) rmSync(join(home, 'build'), { recursive: true, force: true });
    const { held, memoryId, lastPath, pages: listPages } = await prepare(home, size);
    const env = cleanEnv({ RECALL_HOME: home, RECALL_EMBEDDER: 'hash', LANCEDB_LOG: 'error', RECALL_OLLAMA_HOST: 'http://127.0.0.1:9' });
    const project = encodeURIComponent('project:bench3-0000abcd');
    const pages = {
      memories: '',
      search: '?q=database+migrations',
      memory: `memory/${memoryId}`,
      confirmForget: `memory/${memoryId}/forget`,
      review: 'review',
      reviewFiltered: `review?namespace=${project}`,
      reviewPage2: 'review?page=2',
      nextSession: `next-session?namespace=${project}`,
      sessions: 'sessions',
      endless: 'endless',
      health: 'health',
      lastPage: lastPath,
    };
    const serve = withServe ? spawn(process.execPath, [builds.current, 'serve'], { env, stdio: ['ignore', 'pipe', 'inherit'] }) : null;
    if (serve !== null) {
      await new Promise((ready, reject) => {
        serve.stdout.once('data', ready);
        serve.once('exit', (code) => reject(new Error(`recall serve exited ${code}`)));
      });
    }
    const samples = Object.fromEntries(Object.keys(builds).map((b) => [b, { starts: [], trades: [], tradeCpu: [], ...Object.fromEntries(Object.keys(pages).map((k) => [k, { first: [], warm: [], firstCpu: [], warmCpu: [] }])) }]));
    for (let i = 0; i < runs; i += 1) {
      for (const [key, path] of Object.entries(pages)) {
        for (const [build, cli] of Object.entries(builds)) {
          const figures = await measurePage(cli, env, path);
          if (key === 'memories' && !figures.first.body.includes('data-id=')) throw new Error('the first page lists no memory');
          const s = samples[build];
          s.starts.push(figures.startMs);
          s.trades.push(figures.trade.ms);
          if (figures.trade.cpu !== null) s.tradeCpu.push(figures.trade.cpu);
          s[key].first.push(figures.first.ms);
          s[key].warm.push(...figures.warm.map((w) => w.ms));
          if (figures.first.cpu !== null) s[key].firstCpu.push(figures.first.cpu);
          s[key].warmCpu.push(...figures.warm.flatMap((w) => (w.cpu === null ? [] : [w.cpu])));
        }
      }
    }
    // As after a capture: the counts kept in the state dir no longer match, and each start counts again.
    const afterWrite = Object.fromEntries(Object.keys(builds).map((b) => [b, { starts: [], trades: [], first: [], firstCpu: [] }]));
    for (let i = 0; i < runs; i += 1) {
      for (const [build, cli] of Object.entries(builds)) {
        rmSync(join(home, 'group-counts.json'), { force: true });
        const figures = await measurePage(cli, env, pages.memories);
        const a = afterWrite[build];
        a.starts.push(figures.startMs);
        a.trades.push(figures.trade.ms);
        a.first.push(figures.first.ms);
        if (figures.first.cpu !== null) a.firstCpu.push(figures.first.cpu);
      }
    }
    const summariseAfterWrite = (a) => ({
      startToUrlMedianMs: round(median(a.starts)),
      codeTradeMedianMs: round(median(a.trades)),
      memoriesFirstMedianMs: round(median(a.first)),
      ...(a.firstCpu.length > 0 ? { memoriesFirstCpuMedianMs: round(median(a.firstCpu)) } : {}),
    });
    if (serve !== null) {
      serve.kill('SIGTERM');
      await new Promise((done) => serve.once('exit', done));
    }
    const current = summarise(samples.current, pages);
    const currentAfterWrite = summariseAfterWrite(afterWrite.current);
    current.met = current.met && currentAfterWrite.memoriesFirstMedianMs < TARGET_MS;
    return {
      memories: size,
      held,
      lastPage: listPages,
      ...current,
      afterWrite: currentAfterWrite,
      ...(samples.baseline ? { baseline: { ...summarise(samples.baseline, pages), afterWrite: summariseAfterWrite(afterWrite.baseline) } } : {}),
    };
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

const measured = [];
for (const size of sizes) {
  const figures = await measureSize(size);
  measured.push(figures);
  console.log(`recall ui over ${size} memories (${figures.held} held)${withServe ? ', hosted by a running recall serve' : ''}, median of ${runs} starts per page, ${WARM} warm requests each (NODE_EXTRA_CA_CERTS unset)`);
  console.log(`  spawn to the URL          ${figures.startToUrlMedianMs} ms${figures.baseline ? ` (baseline ${figures.baseline.startToUrlMedianMs})` : ''}`);
  const trade = (f) => `${f.codeTradeMedianMs} [${f.codeTradeCpuMedianMs ?? '-'}]`;
  console.log(`  code trade (1st request)  ${trade(figures).padEnd(36)}${figures.baseline ? trade(figures.baseline) : ''}`);
  console.log(`  page                      first request / warm, ms [CPU ms]${figures.baseline ? '         baseline' : ''}`);
  const cell = (f) => `${f.firstMedianMs} [${f.firstCpuMedianMs ?? '-'}] / ${f.warmMedianMs} [${f.warmCpuMedianMs ?? '-'}]`;
  for (const [key, f] of Object.entries(figures.pages)) {
    const b = figures.baseline?.pages[key];
    console.log(`  ${key.padEnd(24)}  ${cell(f).padEnd(36)}${b ? cell(b) : ''}${key === 'lastPage' ? ` (page ${figures.lastPage})` : ''}`);
  }
  const aw = (f) => `${f.startToUrlMedianMs} / ${f.memoriesFirstMedianMs} [${f.memoriesFirstCpuMedianMs ?? '-'}]`;
  console.log(`  counts not kept (as after a capture): spawn to URL / memories first request, ms [CPU ms]: ${aw(figures.afterWrite)}${figures.baseline ? `, baseline ${aw(figures.baseline.afterWrite)}` : ''}`);
  console.log(`  every page < ${TARGET_MS} ms, first request (counts kept or not) and warm: ${figures.met ? 'met' : `not met (slowest first request: ${figures.slowestFirst.page} ${figures.slowestFirst.ms} ms, slowest warm: ${figures.slowestWarm.page} ${figures.slowestWarm.ms} ms)`}`);
}
const smallest = measured[0];
const largest = measured.at(-1);
const ratios = smallest && largest && smallest !== largest
  ? Object.fromEntries(Object.keys(largest.pages).map((k) => [k, round(largest.pages[k].firstMedianMs / Math.max(0.1, smallest.pages[k].firstMedianMs))]))
  : {};
if (Object.keys(ratios).length > 0) console.log(`  largest / smallest store, first request per page: ${Object.entries(ratios).map(([k, v]) => `${k} ${v}x`).join(', ')}`);
recordResult(withServe ? 'uiFirstPageThroughServe' : 'uiFirstPage', {
  runs, warmRequests: WARM, targetMs: TARGET_MS, storesMaintained: true, sizes: measured, ratios, throughServe: withServe,
  ...(baselineDist ? { baselineDist: pathToFileURL(baselineDist).pathname } : {}),
  met: measured.every((m) => m.met),
});
