// How fast `recall ui` answers over a store of N memories (build-store.mjs: hash embedder, 20 projects).
// Per run: start the built bin (`ui --no-open --port 0`), time spawn to the printed URL (the store
// opens before it prints), take the token from its line, then time
// - the first page: the first GET / after start, as a user opening the printed URL;
// - the same page again (warm), a hybrid search, the review page and the next-session preview of one
//   project, each a median over the warm requests;
// - the last page: reached by following the "older" links from the first page (50 rows a page, so
//   page 200 of 10,000), then timed like the others, to compare a deep page with the first.
// With --serve, a `recall serve` runs on the same state dir for the whole bench, so `recall ui` hosts
// the page inside the daemon (its warm table) instead of opening the table itself.
// Medians over `runs` starts; NODE_EXTRA_CA_CERTS unset.
// Usage: npm run build && node bench/ui-first-page.mjs [runs] [size] [--serve]
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
const runs = Math.max(3, Number(args[0] ?? 7));
const size = Number(args[1] ?? 10_000);
const WARM = 5;
const TARGET_MS = 200;
const cli = fileURLToPath(new URL('../dist/cli/main.cjs', import.meta.url));

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

async function timeGet(base, path, token) {
  const started = performance.now();
  const response = await fetch(`${base}${path}`, { headers: { cookie: `recall_ui_${new URL(base).port}=${token}` } });
  const body = await response.text();
  const ms = performance.now() - started;
  if (response.status !== 200) throw new Error(`GET ${path}: ${response.status} ${body.slice(0, 200)}`);
  return { ms, body };
}

/** Trades the printed one-time code for the session cookie, as the browser does; returns the token. */
async function redeem(base, code) {
  const response = await fetch(`${base}?code=${code}`, { redirect: 'manual' });
  const match = /recall_ui_\d+=([\w-]+)/.exec(response.headers.get('set-cookie') ?? '');
  if (response.status !== 303 || match === null) throw new Error(`the one-time code was refused: ${response.status}`);
  return match[1];
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

const home = mkdtempSync(join(tmpdir(), 'recall-bench-ui-'));
try {
  buildStoreInChild(home, size);
  const env = cleanEnv({ RECALL_HOME: home, RECALL_EMBEDDER: 'hash', LANCEDB_LOG: 'error' });
  const paths = {
    warmFirstPage: '',
    search: '?q=database+migrations',
    review: 'review',
    nextSession: `next-session?namespace=${encodeURIComponent('project:bench3-0000abcd')}`,
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
    const token = await redeem(base, code);
    starts.push(startMs);
    try {
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
  const round = (n) => Math.round(n * 10) / 10;
  const figures = {
    runs, memories: size, targetMs: TARGET_MS,
    startToUrlMedianMs: round(median(starts)),
    firstPageMedianMs: round(median(first)),
    warmMedianMs: Object.fromEntries(Object.entries(warm).map(([k, v]) => [k, round(median(v))])),
    lastPage: deepPages,
    lastPageMedianMs: round(median(deep)),
    throughServe: withServe,
    met: median(first) < TARGET_MS,
  };
  console.log(`recall ui over ${size} memories${withServe ? ', hosted by a running recall serve' : ''}, median of ${runs} starts (NODE_EXTRA_CA_CERTS unset)`);
  console.log(`  spawn to the URL          ${figures.startToUrlMedianMs} ms (${withServe ? 'node start, then the daemon starts the page' : 'node start and store open'})`);
  console.log(`  first page                ${figures.firstPageMedianMs} ms (target < ${TARGET_MS} ms: ${figures.met ? 'met' : 'not met'})`);
  for (const [key, ms] of Object.entries(figures.warmMedianMs)) console.log(`  ${key.padEnd(24)}  ${ms} ms`);
  console.log(`  ${`last page (page ${deepPages})`.padEnd(24)}  ${figures.lastPageMedianMs} ms`);
  if (serve !== null) {
    serve.kill('SIGTERM');
    await new Promise((resolve) => serve.once('exit', resolve));
  }
  recordResult(withServe ? 'uiFirstPageThroughServe' : 'uiFirstPage', figures);
} finally {
  rmSync(home, { recursive: true, force: true });
}
