// How fast `recall ui` answers over a store of N memories (build-store.mjs: hash embedder, 20 projects).
// Per run: start the built bin (`ui --no-open --port 0`), time spawn to the printed URL (the store
// opens before it prints), take the token from its line, then time
// - the first page: the first GET / after start, as a user opening the printed URL;
// - the same page again (warm), an older page (?page=20), a hybrid search, the review page and the
//   next-session preview of one project, each a median over the warm requests.
// Medians over `runs` starts; NODE_EXTRA_CA_CERTS unset.
// Usage: npm run build && node bench/ui-first-page.mjs [runs] [size]
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { buildStoreInChild, cleanEnv, median } from './measure.mjs';
import { recordResult } from './results.mjs';

const runs = Math.max(3, Number(process.argv[2] ?? 7));
const size = Number(process.argv[3] ?? 10_000);
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
      const match = /^recall ui: (http:\/\/127\.0\.0\.1:\d+\/)\?token=([\w-]+)\n/.exec(text);
      if (match) resolve({ child, base: match[1], token: match[2], startMs: performance.now() - started });
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

const home = mkdtempSync(join(tmpdir(), 'recall-bench-ui-'));
try {
  buildStoreInChild(home, size);
  const env = cleanEnv({ RECALL_HOME: home, RECALL_EMBEDDER: 'hash', LANCEDB_LOG: 'error' });
  const paths = {
    warmFirstPage: '',
    olderPage: '?page=20',
    search: '?q=database+migrations',
    review: 'review',
    nextSession: `next-session?namespace=${encodeURIComponent('project:bench3-0000abcd')}`,
  };
  const first = [];
  const starts = [];
  const warm = Object.fromEntries(Object.keys(paths).map((k) => [k, []]));
  for (let i = 0; i < runs; i += 1) {
    const { child, base, token, startMs } = await startUi(env);
    starts.push(startMs);
    try {
      const page = await timeGet(base, '', token);
      if (!page.body.includes('data-id=')) throw new Error('the first page lists no memory');
      first.push(page.ms);
      for (let w = 0; w < WARM; w += 1) for (const [key, path] of Object.entries(paths)) warm[key].push((await timeGet(base, path, token)).ms);
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
    met: median(first) < TARGET_MS,
  };
  console.log(`recall ui over ${size} memories, median of ${runs} starts (NODE_EXTRA_CA_CERTS unset)`);
  console.log(`  spawn to the URL          ${figures.startToUrlMedianMs} ms (node start and store open)`);
  console.log(`  first page                ${figures.firstPageMedianMs} ms (target < ${TARGET_MS} ms: ${figures.met ? 'met' : 'not met'})`);
  for (const [key, ms] of Object.entries(figures.warmMedianMs)) console.log(`  ${key.padEnd(24)}  ${ms} ms`);
  recordResult('uiFirstPage', figures);
} finally {
  rmSync(home, { recursive: true, force: true });
}
