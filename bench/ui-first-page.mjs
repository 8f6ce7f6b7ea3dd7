// How fast `recall ui` answers over stores of N memories (build-store.mjs: hash embedder, 20 projects),
// 1% of them held for review (as a capture's screen leaves them). Per size and run: start the built bin
// (`ui --no-open --port 0`), time spawn to the printed URL (the store opens before it prints), trade the
// URL's one-time code for the session cookie, then time
// - the first page: the first GET / after start, as a user opening the printed URL;
// - every page warm, each a median over the warm requests: the memories list, a hybrid search, one
//   memory, its forget confirmation, review (first page, filtered by reason, its second page), the
//   next-session preview of one project, sessions, Endless and health;
// - the last page of the memories list: reached by following the "older" links from the first page
//   (50 rows a page), then timed like the others, to compare a deep page with the first.
// With --serve, a `recall serve` runs on the same state dir for each size, so `recall ui` hosts the page
// inside the daemon (its warm table) instead of opening the table itself.
// Medians over `runs` starts; NODE_EXTRA_CA_CERTS unset. The target: every page under 200 ms.
// Usage: npm run build && node bench/ui-first-page.mjs [runs] [sizes, e.g. 200,10000,100000] [--serve]
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { buildStoreInChild, cleanEnv, median } from './measure.mjs';
import { recordResult } from './results.mjs';

const args = process.argv.slice(2).filter((a) => a !== '--serve');
const withServe = process.argv.includes('--serve');
const runs = Math.max(3, Number(args[0] ?? 5));
const sizes = String(args[1] ?? '200,10000,100000').split(',').map(Number);
const WARM = 5;
const TARGET_MS = 200;
const HELD_SHARE = 0.01;
const cli = fileURLToPath(new URL('../dist/cli/main.cjs', import.meta.url));
const dist = new URL('../dist/', import.meta.url);

function startUi(env) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [cli, 'ui', '--no-open', '--port', '0'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let text = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk) => {
      text += chunk;
      const match = /^recall ui: (http:\/\/127\.0\.0\.1:\d+\/)\?code=([\w-]+)\n/.exec(text);
      if (match) resolve({ child, base: match[1], code: match[2], startMs: performance.now() - started });
    });
    child.on('exit', (code) => reject(new Error(`recall ui exited ${code} before printing its URL`)));
  });
}

/** Trades the printed one-time code for the session cookie, as the browser does; returns the token. */
async function redeem(base, code) {
  const response = await fetch(`${base}?code=${code}`, { redirect: 'manual' });
  const match = /recall_ui_\d+=([\w-]+)/.exec(response.headers.get('set-cookie') ?? '');
  if (response.status !== 303 || match === null) throw new Error(`the one-time code was refused: ${response.status}`);
  return match[1];
}

async function timeGet(base, path, token) {
  const started = performance.now();
  const response = await fetch(`${base}${path}`, { headers: { cookie: `recall_ui_${new URL(base).port}=${token}` } });
  const body = await response.text();
  const ms = performance.now() - started;
  if (response.status !== 200) throw new Error(`GET ${path}: ${response.status} ${body.slice(0, 200)}`);
  return { ms, body };
}

/** Follows the "older" links from the first page to the last; returns its path and page number. */
async function lastPage(base, token) {
  let path = '';
  let pages = 1;
  for (;;) {
    const { body } = await timeGet(base, path, token);
    const older = /<a href="\/([^"]*)" id="older">/.exec(body);
    if (older === null) return { path, pages };
    path = older[1].replaceAll('&amp;', '&');
    pages += 1;
  }
}

/** Holds 1% of the memories for review, as the screen does with a capture's suspicious ones. */
async function holdSome(home, size) {
  const { openLanceStore } = await import(new URL('adapters/lance-store.js', dist).href);
  const store = await openLanceStore(join(home, 'db'));
  const held = Math.max(1, Math.round(size * HELD_SHARE));
  const rows = await store.list({ limit: held * 7 });
  const ids = rows.filter((_, i) => i % 7 === 3).map((r) => r.id).slice(0, held);
  await store.setStatus(ids, 'quarantined');
  await store.close?.();
  return { held: ids.length, memoryId: rows[0].id };
}

const round = (n) => Math.round(n * 10) / 10;

async function measureSize(size) {
  const home = mkdtempSync(join(tmpdir(), 'recall-bench-ui-'));
  try {
    buildStoreInChild(home, size);
    const { held, memoryId } = await holdSome(home, size);
    const env = cleanEnv({ RECALL_HOME: home, RECALL_EMBEDDER: 'hash', LANCEDB_LOG: 'error', RECALL_OLLAMA_HOST: 'http://127.0.0.1:9' });
    const paths = {
      memories: '',
      search: '?q=database+migrations',
      memory: `memory/${memoryId}`,
      confirmForget: `memory/${memoryId}/forget`,
      review: 'review',
      reviewFiltered: `review?namespace=${encodeURIComponent('project:bench3-0000abcd')}`,
      reviewPage2: 'review?page=2',
      nextSession: `next-session?namespace=${encodeURIComponent('project:bench3-0000abcd')}`,
      sessions: 'sessions',
      endless: 'endless',
      health: 'health',
    };
    const serve = withServe ? spawn(process.execPath, [cli, 'serve'], { env, stdio: ['ignore', 'pipe', 'inherit'] }) : null;
    if (serve !== null) {
      await new Promise((resolve, reject) => {
        serve.stdout.once('data', resolve);
        serve.once('exit', (code) => reject(new Error(`recall serve exited ${code}`)));
      });
    }
    const first = [];
    const deep = [];
    let deepPages = 0;
    const starts = [];
    const warm = Object.fromEntries(Object.keys(paths).map((k) => [k, []]));
    for (let i = 0; i < runs; i += 1) {
      const { child, base, code, startMs } = await startUi(env);
      starts.push(startMs);
      try {
        const token = await redeem(base, code);
        const page = await timeGet(base, '', token);
        if (!page.body.includes('data-id=')) throw new Error('the first page lists no memory');
        first.push(page.ms);
        for (let w = 0; w < WARM; w += 1) for (const [key, path] of Object.entries(paths)) warm[key].push((await timeGet(base, path, token)).ms);
        const last = await lastPage(base, token);
        deepPages = last.pages;
        for (let w = 0; w < WARM; w += 1) deep.push((await timeGet(base, last.path, token)).ms);
      } finally {
        child.kill('SIGTERM');
        await new Promise((resolve) => child.once('exit', resolve));
      }
    }
    if (serve !== null) {
      serve.kill('SIGTERM');
      await new Promise((resolve) => serve.once('exit', resolve));
    }
    const pagesMedianMs = { ...Object.fromEntries(Object.entries(warm).map(([k, v]) => [k, round(median(v))])), lastPage: round(median(deep)) };
    const slowest = Object.entries(pagesMedianMs).sort((a, b) => b[1] - a[1])[0];
    return {
      memories: size,
      held,
      startToUrlMedianMs: round(median(starts)),
      firstPageMedianMs: round(median(first)),
      pagesMedianMs,
      lastPage: deepPages,
      slowestPage: { page: slowest[0], ms: slowest[1] },
      met: median(first) < TARGET_MS && slowest[1] < TARGET_MS,
    };
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

const measured = [];
for (const size of sizes) {
  const figures = await measureSize(size);
  measured.push(figures);
  console.log(`recall ui over ${size} memories (${figures.held} held)${withServe ? ', hosted by a running recall serve' : ''}, median of ${runs} starts (NODE_EXTRA_CA_CERTS unset)`);
  console.log(`  spawn to the URL          ${figures.startToUrlMedianMs} ms`);
  console.log(`  first page                ${figures.firstPageMedianMs} ms`);
  for (const [key, ms] of Object.entries(figures.pagesMedianMs)) console.log(`  ${key.padEnd(24)}  ${ms} ms${key === 'lastPage' ? ` (page ${figures.lastPage})` : ''}`);
  console.log(`  first page and every warm page < ${TARGET_MS} ms: ${figures.met ? 'met' : `not met (first page ${figures.firstPageMedianMs} ms, slowest warm page: ${figures.slowestPage.page} ${figures.slowestPage.ms} ms)`}`);
}
const smallest = measured[0];
const largest = measured.at(-1);
const ratios = smallest && largest && smallest !== largest
  ? Object.fromEntries(Object.keys(largest.pagesMedianMs).map((k) => [k, round(largest.pagesMedianMs[k] / Math.max(0.1, smallest.pagesMedianMs[k]))]))
  : {};
if (Object.keys(ratios).length > 0) console.log(`  largest / smallest store, per page: ${Object.entries(ratios).map(([k, v]) => `${k} ${v}x`).join(', ')}`);
recordResult(withServe ? 'uiFirstPageThroughServe' : 'uiFirstPage', { runs, targetMs: TARGET_MS, sizes: measured, ratios, throughServe: withServe, met: measured.every((m) => m.met) });
