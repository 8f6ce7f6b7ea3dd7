// Many sessions ending at once: how long each SessionEnd hook takes to return, with stdin from pipes
// and from files, and how many workers the burst starts. No model is configured, so each job waits
// in the queue (the worker finds no model and leaves): what is measured is the hooks, not captures.
// The hooks start from test/support/burst-runner.mjs, all at once.
//   node bench/session-end-burst.mjs [counts=50,200]
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cleanEnv, sleep } from './measure.mjs';
import { recordResult } from './results.mjs';

const counts = (process.argv[2] ?? '50,200').split(',').map(Number);
const cli = fileURLToPath(new URL('../dist/cli/main.js', import.meta.url));
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

const rows = [];
try {
  for (const count of counts) {
    for (const stdin of ['pipe', 'file']) {
      const home = join(root, `${count}-${stdin}`);
      const dir = mkdtempSync(join(root, 'work-'));
      const env = cleanEnv({ RECALL_HOME: home, RECALL_EMBEDDER: 'hash', RECALL_OLLAMA_LLM_MODEL: '', LANCEDB_LOG: 'error' });
      const payloads = Array.from({ length: count }, (_, i) => ({ session_id: `burst-${i}`, transcript_path: join(dir, `s${i}.jsonl`), cwd: dir, hook_event_name: 'SessionEnd' }));
      const spec = join(dir, 'spec.json');
      writeFileSync(spec, JSON.stringify({ cli, env, payloads, stdin, dir }));
      const started = process.hrtime.bigint();
      const results = JSON.parse(execFileSync(process.execPath, [runner, spec], { maxBuffer: 64 << 20, encoding: 'utf8' }));
      const burstMs = Number(process.hrtime.bigint() - started) / 1e6;
      await sleep(3000); // let the worker log and leave
      const queued = readdirSync(join(home, 'spool', 'pending')).length;
      const row = { hooks: count, stdin, burstMs: Math.round(burstMs), returnMs: spread(results.map((r) => r.ms)), failed: results.filter((r) => r.exitCode !== 0).length, queued, workers: workersLogged(home) };
      console.error(`  ${JSON.stringify(row)}`);
      rows.push(row);
    }
  }
} finally {
  rmSync(root, { recursive: true, force: true });
}
console.log(JSON.stringify(rows));
recordResult('sessionEndBurst', { rows });
