// Many sessions ending at once: how long each SessionEnd hook takes to return, with stdin from pipes
// and from files, and how many workers the burst starts. No model is configured, so each job waits
// in the queue (the worker finds no model and leaves): what is measured is the hooks, not captures.
// The processes start from test/support/burst-runner.mjs, all at once. In the same run, arm after arm
// for each size and stdin: the floor (N bare `node -e 0` started at once: on 2 cores, node's own start
// x N / 2), this build's hook through the entry `recall install` writes (dist/cli/main.cjs), and, with
// --baseline, another build's hook (e.g. main's, copied before a change:
//   mkdir -p .tmp/main && cp -r dist package.json .tmp/main/ ; then --baseline .tmp/main/dist/cli/main.js).
// NODE_EXTRA_CA_CERTS is unset in every arm. Each row records the load average before its arm, and the
// CPU its processes used (user + system, per process: on a loaded machine the return times swing with
// what else runs, the CPU much less; a hook's own work is its CPU over the bare node's).
//   node bench/session-end-burst.mjs [counts=50,200] [--baseline <entry>]
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cleanEnv, sleep } from './measure.mjs';
import { recordResult } from './results.mjs';

const argv = process.argv.slice(2);
const baselineAt = argv.indexOf('--baseline');
const baseline = baselineAt === -1 ? null : resolve(argv[baselineAt + 1]);
const positional = argv.filter((_, i) => i !== baselineAt && i !== baselineAt + 1);
const counts = (positional[0] ?? '50,200').split(',').map(Number);
const cli = fileURLToPath(new URL('../dist/cli/main.cjs', import.meta.url));
const runner = fileURLToPath(new URL('../test/support/burst-runner.mjs', import.meta.url));
const root = mkdtempSync(join(tmpdir(), 'recall-burst-bench-'));

function spread(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q) => Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]);
  return { median: at(0.5), p95: at(0.95), max: Math.round(sorted[sorted.length - 1]) };
}

/** Distinct worker processes that logged, from recall.log. */
function workersLogged(home) {
  try {
    const lines = readFileSync(join(home, 'recall.log'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    return new Set(lines.filter((l) => l.component === 'worker').map((l) => l.pid)).size;
  } catch {
    return 0;
  }
}

const load = () => loadavg().map((n) => Math.round(n * 100) / 100);

const arms = [
  { arm: 'bare node -e 0', entry: null },
  ...(baseline === null ? [] : [{ arm: 'baseline hook', entry: baseline }]),
  { arm: 'this build hook', entry: cli },
];

const rows = [];
try {
  for (const count of counts) {
    for (const stdin of ['pipe', 'file']) {
      const floor = {};
      for (const { arm, entry } of arms) {
        const home = join(root, `${count}-${stdin}-${rows.length}`);
        const dir = mkdtempSync(join(root, 'work-'));
        const env = cleanEnv({ RECALL_HOME: home, RECALL_EMBEDDER: 'hash', RECALL_OLLAMA_LLM_MODEL: '', LANCEDB_LOG: 'error' });
        const payloads = Array.from({ length: count }, (_, i) => ({ session_id: `burst-${i}`, transcript_path: join(dir, `s${i}.jsonl`), cwd: dir, hook_event_name: 'SessionEnd' }));
        const spec = join(dir, 'spec.json');
        const cpuFile = join(dir, 'cpu.json');
        writeFileSync(spec, JSON.stringify({ cli: entry, env, payloads, stdin, dir, cpuFile, ...(entry === null ? { args: ['-e', '0'] } : {}) }));
        const loadBefore = load();
        const started = process.hrtime.bigint();
        const results = JSON.parse(execFileSync(process.execPath, [runner, spec], { maxBuffer: 64 << 20, encoding: 'utf8' }));
        const burstMs = Number(process.hrtime.bigint() - started) / 1e6;
        const returnMs = spread(results.map((r) => r.ms));
        const { childCpuMs } = JSON.parse(readFileSync(cpuFile, 'utf8'));
        const cpuPerProcessMs = childCpuMs === null ? null : Math.round((childCpuMs / count) * 10) / 10;
        const row = { hooks: count, stdin, arm, loadBefore, burstMs: Math.round(burstMs), returnMs, cpuPerProcessMs, failed: results.filter((r) => r.exitCode !== 0).length };
        if (entry === null) {
          Object.assign(floor, returnMs, { cpu: cpuPerProcessMs });
        } else {
          if (cpuPerProcessMs !== null && floor.cpu !== null) row.cpuOverBareMs = Math.round((cpuPerProcessMs - floor.cpu) * 10) / 10;
          await sleep(3000); // let the worker log and leave
          const queued = readdirSync(join(home, 'spool', 'pending')).length;
          Object.assign(row, { queued, lost: count - queued, workers: workersLogged(home) });
          row.overFloor = { median: Math.round((returnMs.median / floor.median) * 100) / 100, p95: Math.round((returnMs.p95 / floor.p95) * 100) / 100 };
        }
        console.error(`  ${JSON.stringify(row)}`);
        rows.push(row);
        await sleep(1000);
      }
    }
  }
} finally {
  rmSync(root, { recursive: true, force: true });
}
console.log(JSON.stringify(rows));
recordResult('sessionEndBurst', { entry: 'dist/cli/main.cjs', baseline: baseline === null ? null : 'given with --baseline', loadAfter: load(), rows });
