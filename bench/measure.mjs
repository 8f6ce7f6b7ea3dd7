// Shared timing helpers for the benchmarks: wall time of whole processes, medians, a clean env.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

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
