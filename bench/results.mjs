// Benchmarks write their figures into bench/results.json, keyed by benchmark, with the machine they ran on.
// BENCH_RESULTS_FILE points them at another file (bench/run-all.mjs --quick does, so a trial run never
// overwrites the recorded figures).
import { readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const RESULTS_FILE = process.env.BENCH_RESULTS_FILE
  ? resolve(process.env.BENCH_RESULTS_FILE)
  : fileURLToPath(new URL('./results.json', import.meta.url));

/** The machine line: cores, memory, CPU model, Node version. */
export function machineLine() {
  return `${os.cpus().length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB, ${os.cpus()[0]?.model ?? 'unknown cpu'}, Node ${process.version}`;
}

export function readResults(file = RESULTS_FILE) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return {}; // First run.
  }
}

export function recordResult(name, figures) {
  const all = readResults();
  all[name] = {
    ...figures,
    measuredAt: new Date().toISOString(),
    machine: machineLine(),
  };
  writeFileSync(RESULTS_FILE, `${JSON.stringify(all, null, 2)}\n`);
}
