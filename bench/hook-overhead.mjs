// SessionEnd hook wall time against a bare `node -e 0`, interleaved, median of N runs each.
// Usage: npm run build && node bench/hook-overhead.mjs [runs]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cleanEnv, median, sleep, timeRun } from './measure.mjs';
import { recordResult } from './results.mjs';

const runs = Number(process.argv[2] ?? 20);
const cli = fileURLToPath(new URL('../dist/cli/main.js', import.meta.url));
const home = mkdtempSync(join(tmpdir(), 'recall-bench-'));
// The real hook, spawn included; no model is configured, so each worker it starts finds nothing to run and exits.
const env = cleanEnv({ RECALL_HOME: home, RECALL_OLLAMA_LLM_MODEL: '' });
const payload = JSON.stringify({
  session_id: 'bench',
  transcript_path: join(home, 'missing.jsonl'),
  cwd: home,
  hook_event_name: 'SessionEnd',
  reason: 'other',
});

const bare = [];
const hook = [];
try {
  for (let i = 0; i < runs; i += 1) {
    bare.push(timeRun(process.execPath, ['-e', '0'], { env }).ms);
    const run = timeRun(process.execPath, [cli, 'hook', 'session-end'], { input: payload, env });
    if (run.stdout.trim() !== '{}') throw new Error(`unexpected hook output: ${run.stdout}`);
    hook.push(run.ms);
    await sleep(400); // let the detached worker finish before the next pair
  }
} finally {
  rmSync(home, { recursive: true, force: true });
}

const result = {
  runs,
  bareNodeMedianMs: round(median(bare)),
  hookMedianMs: round(median(hook)),
  overheadMs: round(median(hook) - median(bare)),
};
console.log(`SessionEnd hook, median of ${runs} interleaved runs (NODE_EXTRA_CA_CERTS unset in both):`);
console.log(`  bare node -e 0      ${result.bareNodeMedianMs} ms`);
console.log(`  recall hook         ${result.hookMedianMs} ms`);
console.log(`  overhead            ${result.overheadMs} ms   (target: <= 30 ms)`);
recordResult('sessionEndHook', result);

function round(n) {
  return Math.round(n * 10) / 10;
}
