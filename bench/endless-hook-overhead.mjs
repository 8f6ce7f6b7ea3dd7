// The PostToolUse hook's own cost, interleaved runs, medians (NODE_EXTRA_CA_CERTS unset in every arm):
//   bare:  node -e 0
//   off:   the hook with Endless Mode off (answers {} after one environment look-up)
//   on:    the hook compressing a 22 kB Bash output with a double that answers at once; the model
//          call's own time is read from the hook's log line (modelMs) and taken out, which leaves
//          what the hook adds beyond the model call: start-up, parsing, saving the output (fsync),
//          prompt, validation, rendering, the answer.
//   down:  the same with Ollama down (nothing listening): the deterministic reduction.
// Usage: npm run build && node bench/endless-hook-overhead.mjs [runs]
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';
import { cleanEnv, median, timeRun } from './measure.mjs';
import { recordResult } from './results.mjs';

const runs = Number(process.argv[2] ?? 20);
const cli = fileURLToPath(new URL('../dist/cli/main.js', import.meta.url));
const server = spawn(process.execPath, [fileURLToPath(new URL('./endless-double-server.mjs', import.meta.url))], { stdio: ['ignore', 'pipe', 'inherit'] });
const { url } = JSON.parse(await new Promise((resolve) => createInterface({ input: server.stdout }).once('line', resolve)));
const home = mkdtempSync(join(tmpdir(), 'recall-bench-ptu-'));

const log = Array.from({ length: 400 }, (_, i) => `\u001b[32m ✓\u001b[0m test/unit/module-${i % 26}-${Math.floor(i / 26)}.test.ts (${(i % 9) + 1} tests) ${(i * 37) % 90}ms`).join('\n') + '\n FAIL  test/unit/billing.test.ts\nAssertionError: expected 1999 to be 2000';
let n = 0;
const payload = () => JSON.stringify({
  session_id: 'bench', transcript_path: '/tmp/bench.jsonl', cwd: home, hook_event_name: 'PostToolUse', tool_name: 'Bash',
  tool_input: { command: 'npm test' }, tool_use_id: `toolu_bench_${(n += 1)}`,
  tool_response: { stdout: log, stderr: '', interrupted: false, isImage: false, noOutputExpected: false },
});
const common = { RECALL_HOME: home, RECALL_OLLAMA_LLM_MODEL: 'llama3.2:3b', RECALL_HOOK_SPAWN: '0' };
const envOff = cleanEnv({ ...common, OLLAMA_HOST: url });
const envOn = cleanEnv({ ...common, OLLAMA_HOST: url, RECALL_ENDLESS_MODE: 'true' });
const envDown = cleanEnv({ ...common, OLLAMA_HOST: 'http://127.0.0.1:9', RECALL_ENDLESS_MODE: 'true' });

const bare = [];
const off = [];
const on = [];
const down = [];
try {
  for (let i = 0; i < runs; i += 1) {
    bare.push(timeRun(process.execPath, ['-e', '0'], { env: envOff }).ms);
    const o = timeRun(process.execPath, [cli, 'hook', 'post-tool-use'], { input: payload(), env: envOff });
    if (o.stdout.trim() !== '{}') throw new Error(`unexpected off answer: ${o.stdout.slice(0, 200)}`);
    off.push(o.ms);
    const r = timeRun(process.execPath, [cli, 'hook', 'post-tool-use'], { input: payload(), env: envOn });
    if (!r.stdout.includes('compressed to an observation')) throw new Error(`no observation: ${r.stdout.slice(0, 300)}`);
    on.push(r.ms);
    const d = timeRun(process.execPath, [cli, 'hook', 'post-tool-use'], { input: payload(), env: envDown });
    if (!d.stdout.includes('reduced')) throw new Error(`no reduction: ${d.stdout.slice(0, 300)}`);
    down.push(d.ms);
  }
} finally {
  server.kill('SIGTERM');
}
const modelMs = readFileSync(join(home, 'recall.log'), 'utf8').trim().split('\n').map((l) => JSON.parse(l)).filter((e) => e.msg === 'Bash output: observation').map((e) => e.modelMs);
rmSync(home, { recursive: true, force: true });

const result = {
  runs,
  outputChars: log.length,
  bareNodeMedianMs: round(median(bare)),
  offMedianMs: round(median(off)),
  offOverheadMs: round(median(off) - median(bare)),
  onMedianMs: round(median(on)),
  modelCallMedianMs: round(median(modelMs)),
  onOverheadBeyondModelMs: round(median(on) - median(bare) - median(modelMs)),
  ollamaDownMedianMs: round(median(down)),
};
console.log(`PostToolUse hook, ${runs} interleaved runs, medians (NODE_EXTRA_CA_CERTS unset), ${log.length.toLocaleString('en-US')}-char Bash output:`);
console.log(`  bare node -e 0                    ${result.bareNodeMedianMs} ms`);
console.log(`  Endless Mode off ({})             ${result.offMedianMs} ms   (+${result.offOverheadMs} ms)`);
console.log(`  on, double answering at once      ${result.onMedianMs} ms   (model call inside it: ${result.modelCallMedianMs} ms)`);
console.log(`  hook's own overhead beyond model  ${result.onOverheadBeyondModelMs} ms   (target: < 100 ms)`);
console.log(`  on, Ollama down (reduction)       ${result.ollamaDownMedianMs} ms`);
recordResult('endlessHook', result);

function round(x) {
  return Math.round(x * 10) / 10;
}
