// Benchmarks write their figures into bench/results.json, keyed by benchmark, with the machine they ran on.
import { readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';

const FILE = new URL('./results.json', import.meta.url);

export function recordResult(name, figures) {
  let all = {};
  try {
    all = JSON.parse(readFileSync(FILE, 'utf8'));
  } catch {
    // First run.
  }
  all[name] = {
    ...figures,
    measuredAt: new Date().toISOString(),
    machine: `${os.cpus().length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB, ${os.cpus()[0]?.model ?? 'unknown cpu'}, Node ${process.version}`,
  };
  writeFileSync(FILE, `${JSON.stringify(all, null, 2)}\n`);
}
