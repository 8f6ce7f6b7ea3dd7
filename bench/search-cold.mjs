// Cold `recall search` latency: a new process per query against stores of 1k, 10k and 100k memories.
// Stores are written straight through the built store module with the hash embedder (fast, no model),
// then `node dist/cli/main.js search "<query>" --json` is timed as a whole process, median of N runs.
// Usage: npm run build && node bench/search-cold.mjs [runs] [sizes, comma-separated]
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { cleanEnv, median, timeRun } from './measure.mjs';
import { recordResult } from './results.mjs';

const runs = Number(process.argv[2] ?? 7);
const sizes = (process.argv[3] ?? '1000,10000,100000').split(',').map(Number);
const dist = new URL('../dist/', import.meta.url);
const cli = fileURLToPath(new URL('cli/main.js', dist));
const { openLanceStore } = await import(new URL('adapters/lance-store.js', dist).href);
const { createHashEmbedder } = await import(new URL('embed/hash-embedder.js', dist).href);

const QUERY = 'how should money be stored in the database';
const MODES = ['hybrid', 'vector', 'text'];
const BATCH = 5_000;
const embedder = createHashEmbedder();
const root = mkdtempSync(join(tmpdir(), 'recall-bench-search-'));

/** Realistic-looking memories: a rule built from a few word lists, spread over 20 projects. */
const SUBJECTS = ['pnpm', 'the API', 'migrations', 'money', 'the cache', 'CI', 'logging', 'auth tokens', 'Docker images', 'tests', 'retries', 'the mobile app', 'feature flags', 'timestamps', 'error codes'];
const VERBS = ['must use', 'should prefer', 'never use', 'always run', 'store', 'validate', 'rotate', 'cache', 'log', 'retry'];
const OBJECTS = ['integer cents in a BIGINT column', 'exponential backoff', 'zod schemas', 'structured JSON', 'UTC timestamptz', 'blue-green deploys', 'short-lived JWTs', 'the pnpm store', 'opaque cursors', 'SQLite offline caches', 'E_CONNRESET handling', 'two-space indentation', 'Terraform plans', 'TestFlight builds'];
function memoryText(i) {
  const pick = (list, salt) => list[(i * 7919 + salt * 104729) % list.length];
  return `${pick(SUBJECTS, 1)}: ${pick(VERBS, 2)} ${pick(OBJECTS, 3)} (rule ${i}, see ticket ${(i * 31) % 9973}).`;
}

async function buildStore(size) {
  const home = join(root, `home-${size}`);
  const store = await openLanceStore(join(home, 'db'));
  const started = performance.now();
  for (let from = 0; from < size; from += BATCH) {
    const texts = Array.from({ length: Math.min(BATCH, size - from) }, (_, k) => memoryText(from + k));
    const vectors = await embedder.embed(texts);
    await store.insert(
      texts.map((content, k) => ({
        content, type: 'preference', importance: 0.7, namespace: `project:bench${(from + k) % 20}-0000abcd`,
        projectRoot: null, sessionId: null, source: 'bench', vector: vectors[k],
      })),
      embedder.id,
    );
  }
  // Inserts fold rows into the text index once 500 pile up; fold in the last few too.
  await store.optimize();
  await store.close();
  return { home, buildMs: performance.now() - started };
}

/** Median wall time per mode; the modes take turns run by run, so drift on the machine hits them alike. */
function timeSearches(home) {
  const env = cleanEnv({ RECALL_HOME: home, RECALL_EMBEDDER: 'hash', LANCEDB_LOG: 'error' });
  const times = Object.fromEntries(MODES.map((mode) => [mode, []]));
  for (let i = 0; i < runs; i += 1) {
    for (const mode of MODES) {
      const run = timeRun(process.execPath, [cli, 'search', QUERY, '--json', '--mode', mode], { env });
      if (JSON.parse(run.stdout).length === 0) throw new Error(`no results in ${mode} mode`);
      times[mode].push(run.ms);
    }
  }
  return Object.fromEntries(MODES.map((mode) => [mode, round(median(times[mode]))]));
}

const rows = [];
try {
  const bare = [];
  for (let i = 0; i < runs; i += 1) bare.push(timeRun(process.execPath, ['-e', '0'], { env: cleanEnv() }).ms);
  for (const size of sizes) {
    const { home, buildMs } = await buildStore(size);
    const row = { memories: size, buildS: round(buildMs / 1000), ...timeSearches(home) };
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
  recordResult('searchCold', { runs, query: QUERY, embedder: embedder.id, lancedb, bareNodeMedianMs: bareMs, rows });
} finally {
  rmSync(root, { recursive: true, force: true });
}

function round(n) {
  return Math.round(n * 10) / 10;
}
