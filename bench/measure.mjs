// Shared timing helpers for the benchmarks: wall time of whole processes, medians, a clean env.
import { spawnSync } from 'node:child_process';

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
