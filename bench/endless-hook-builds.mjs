// The PostToolUse hook's cost in several builds of recall at once, interleaved run by run, medians
// (NODE_EXTRA_CA_CERTS unset in every arm): an A/B of a change to the hook path in the same minutes.
// Each build is a copy of dist/ in a folder beside a `prompts` link to the repository's prompts/
// (the hook reads its prompt from ../prompts), e.g. for the build before a change:
//   npm run build && mkdir -p .tmp/before && cp -r dist .tmp/before/dist && ln -s ../../prompts .tmp/before/prompts
// Arms as in endless-hook-overhead.mjs: off, on (a double answering at once), down (Ollama down).
// Usage: node bench/endless-hook-builds.mjs runs distA distB [distC ...]
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';
import { cleanEnv, median, timeRun } from './measure.mjs';

const runs = Number(process.argv[2] ?? 20);
const dists = process.argv.slice(3).map((d) => resolve(d));
const server = spawn(process.execPath, [fileURLToPath(new URL('./endless-double-server.mjs', import.meta.url))], { stdio: ['ignore', 'pipe', 'inherit'] });
const { url } = JSON.parse(await new Promise((r) => createInterface({ input: server.stdout }).once('line', r)));
if (dists.length === 0) throw new Error('usage: node bench/endless-hook-builds.mjs runs distA distB [...]');
const homes = dists.map(() => mkdtempSync(join(tmpdir(), 'recall-ab-ptu-')));
const log = Array.from({ length: 400 }, (_, i) => `\u001b[32m ✓\u001b[0m test/unit/module-${i % 26}-${Math.floor(i / 26)}.test.ts (${(i % 9) + 1} tests) ${(i * 37) % 90}ms`).join('\n') + '\n FAIL  test/unit/billing.test.ts\nAssertionError: expected 1999 to be 2000';
let n = 0;
const payload = (home) => JSON.stringify({ session_id: 'bench', transcript_path: '/tmp/bench.jsonl', cwd: home, hook_event_name: 'PostToolUse', tool_name: 'Bash', tool_input: { command: 'npm test' }, tool_use_id: `toolu_bench_${(n += 1)}`, tool_response: { stdout: log, stderr: '', interrupted: false, isImage: false, noOutputExpected: false } });
const arms = dists.map(() => ({ off: [], on: [], down: [] }));
const bare = [];
try {
  for (let i = 0; i < runs; i += 1) {
    bare.push(timeRun(process.execPath, ['-e', '0'], { env: cleanEnv() }).ms);
    dists.forEach((dist, k) => {
      const home = homes[k];
      const cli = join(dist, 'cli/main.js');
      const common = { RECALL_HOME: home, RECALL_OLLAMA_LLM_MODEL: 'llama3.2:3b', RECALL_HOOK_SPAWN: '0' };
      const o = timeRun(process.execPath, [cli, 'hook', 'post-tool-use'], { input: payload(home), env: cleanEnv({ ...common, OLLAMA_HOST: url }) });
      if (o.stdout.trim() !== '{}') throw new Error(`off: ${o.stdout.slice(0, 200)}`);
      arms[k].off.push(o.ms);
      const r = timeRun(process.execPath, [cli, 'hook', 'post-tool-use'], { input: payload(home), env: cleanEnv({ ...common, OLLAMA_HOST: url, RECALL_ENDLESS_MODE: 'true' }) });
      if (!r.stdout.includes('compressed to an observation')) throw new Error(`${dist} no observation: ${r.stdout.slice(0, 300)}`);
      arms[k].on.push(r.ms);
      const d = timeRun(process.execPath, [cli, 'hook', 'post-tool-use'], { input: payload(home), env: cleanEnv({ ...common, OLLAMA_HOST: 'http://127.0.0.1:9', RECALL_ENDLESS_MODE: 'true' }) });
      if (!d.stdout.includes('reduced')) throw new Error(`no reduction: ${d.stdout.slice(0, 300)}`);
      arms[k].down.push(d.ms);
    });
  }
} finally {
  server.kill('SIGTERM');
}
const r1 = (x) => Math.round(x * 10) / 10;
console.log(`PostToolUse hook, ${runs} interleaved runs, medians, NODE_EXTRA_CA_CERTS unset; bare node -e 0: ${r1(median(bare))} ms`);
dists.forEach((dist, k) => {
  const modelMs = readFileSync(join(homes[k], 'recall.log'), 'utf8').trim().split('\n').map((l) => JSON.parse(l)).filter((e) => e.msg === 'Bash output: observation').map((e) => e.modelMs);
  const a = arms[k];
  console.log(`${dist}: off ${r1(median(a.off))}  on ${r1(median(a.on))} (model call ${r1(median(modelMs))})  own beyond model ${r1(median(a.on) - median(bare) - median(modelMs))}  down ${r1(median(a.down))}`);
  rmSync(homes[k], { recursive: true, force: true });
});
