// Shared timing helpers for the benchmarks: wall time of whole processes, medians, a clean env.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CORPUS } from './corpus.mjs';

/** The environment for both arms of a latency comparison: NODE_EXTRA_CA_CERTS costs ~110 ms per start. */
export function cleanEnv(extra = {}) {
  const env = { ...process.env, ...extra };
  delete env.NODE_EXTRA_CA_CERTS;
  return env;
}

/** Wall time of one process run, in milliseconds. */
export function timeRun(command, args, { input, env }) {
  const start = process.hrtime.bigint();
  const result = spawnSync(command, args, { input, env, encoding: 'utf8' });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} exited ${result.status}: ${result.stderr}`);
  return { ms, stdout: result.stdout };
}

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

export function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Median wall time of `recall search <query> --json --mode <mode>` as a new process, per mode; the
 * modes take turns run by run so drift on the machine hits them alike. Queries rotate by run.
 */
export function timeSearchModes({ cli, home, queries, runs, modes = ['hybrid', 'vector', 'text'] }) {
  const env = cleanEnv({ RECALL_HOME: home, RECALL_EMBEDDER: 'hash', LANCEDB_LOG: 'error' });
  const times = Object.fromEntries(modes.map((mode) => [mode, []]));
  for (let i = 0; i < runs; i += 1) {
    for (const mode of modes) {
      const run = timeRun(process.execPath, [cli, 'search', queries[i % queries.length], '--json', '--mode', mode], { env });
      if (JSON.parse(run.stdout).length === 0) throw new Error(`no results in ${mode} mode`);
      times[mode].push(run.ms);
    }
  }
  return Object.fromEntries(modes.map((mode) => [mode, Math.round(median(times[mode]) * 10) / 10]));
}

/**
 * Builds a bench store (see build-store.mjs) in a child process and returns its figures. The timing
 * process must stay small: after building a big store in-process, every process it spawns starts
 * slower (bare `node -e 0` went from ~25 to 50-110 ms after a 100k-1M build), which inflates every
 * arm of a comparison.
 */
export function buildStoreInChild(home, size, { maintain = false, checkFlat = false } = {}) {
  const script = fileURLToPath(new URL('./build-store.mjs', import.meta.url));
  const args = [script, home, String(size), ...(maintain ? ['--maintain'] : []), ...(checkFlat ? ['--check-flat'] : [])];
  const result = spawnSync(process.execPath, args, { env: { ...process.env, LANCEDB_LOG: 'error' }, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 1 << 20 });
  if (result.status !== 0) throw new Error(`building a store of ${size} failed (exit ${result.status})`);
  return JSON.parse(result.stdout.trim().split('\n').pop());
}

/**
 * Where a store of `size` memories is kept across runs when BENCH_STORE_CACHE names a directory: keyed
 * by size, corpus and the built code that decides what a store holds (rows, schema, maintenance), so a
 * change to any of them builds a new one. Null without that variable.
 */
export function cachedStoreHome(size) {
  const dir = process.env.BENCH_STORE_CACHE;
  if (!dir) return null;
  const hash = createHash('sha256');
  for (const file of ['adapters/lance-index.js', 'adapters/lance-rows.js', 'adapters/lance-tables.js', 'config/schema.js', 'embed/hash-embedder.js']) {
    hash.update(readFileSync(new URL(`../dist/${file}`, import.meta.url)));
  }
  hash.update(readFileSync(new URL('./corpus.mjs', import.meta.url)));
  hash.update(readFileSync(new URL('./build-store.mjs', import.meta.url)));
  return join(dir, `store-${CORPUS}-${size}-${hash.digest('hex').slice(0, 12)}`);
}

/**
 * buildStoreInChild, through the cache when BENCH_STORE_CACHE is set: a store built before by the same
 * code is used as it is, with the figures of its build. Returns those figures, the home, and whether
 * it is cached (then the caller must not delete it, and must not write to it).
 */
export function buildOrReuseStore(home, size, options = {}) {
  const cachedHome = cachedStoreHome(size);
  if (cachedHome === null) return { home, cached: false, ...buildStoreInChild(home, size, options) };
  const figures = join(cachedHome, 'bench-build.json');
  if (!existsSync(figures)) {
    rmSync(cachedHome, { recursive: true, force: true });
    mkdirSync(cachedHome, { recursive: true });
    writeFileSync(figures, JSON.stringify(buildStoreInChild(cachedHome, size, options)));
  }
  return { home: cachedHome, cached: true, ...JSON.parse(readFileSync(figures, 'utf8')) };
}
