// `recall endless fork` time on a synthetic 2,000-tool-use session: in-process (read, transform,
// validate, write) and the whole CLI process (its fast path, and the same fork through the full
// command-line program, interleaved with bare node), medians of N runs. Two situations:
//   warm: the observations already exist (the PostToolUse hook made them live): fork reads them;
//   cold: nothing stored yet and --no-model: fork saves each full output, then uses the reduction.
// Usage: npm run build && node bench/endless-fork.mjs [runs]
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cleanEnv, median, timeRun } from './measure.mjs';
import { recordResult } from './results.mjs';
import { syntheticSession } from './endless-synthetic-session.mjs';

const runs = Number(process.argv[2] ?? 9);
const dist = new URL('../dist/', import.meta.url);
const { forkSession } = await import(new URL('endless/fork-session.js', dist).href);
const { ENDLESS_DEFAULTS } = await import(new URL('endless/endless-defaults.js', dist).href);
const cli = fileURLToPath(new URL('cli/main.cjs', dist));

const root = mkdtempSync(join(tmpdir(), 'recall-bench-fork-'));
const { text, sessionId } = syntheticSession(2000);
const transcript = join(root, `${sessionId}.jsonl`);
writeFileSync(transcript, text);
const settings = { ...ENDLESS_DEFAULTS, denylist: [], enabled: true, ollama: { host: 'http://127.0.0.1:9', model: 'bench', numCtx: 8192, timeoutMs: 1000 } };
const logger = { log() {} };
const observation = { type: 'discovery', title: 'npm test: 1 failure', subtitle: 'billing.test.ts', narrative: 'One refund assertion fails; the rest pass.', facts: ['AssertionError: expected 1 to be 2', 'test/unit/mod-1/billing.test.ts'], concepts: ['testing'], files: ['test/unit/mod-1/billing.test.ts'] };
const base = (home, useModel) => ({ home, settings, logger, now: () => Date.now(), keepRecent: 3, useModel, observe: async () => observation });

let id = 0;
const newId = () => `f0f0f0f0-0000-4000-8000-${String((id += 1)).padStart(12, '0')}`;

// Cold: a fresh state dir every run, no model.
const cold = [];
for (let i = 0; i < runs; i += 1) {
  const home = join(root, `cold-${i}`);
  const t0 = performance.now();
  await forkSession(transcript, newId(), base(home, false));
  cold.push(performance.now() - t0);
}
// Warm: observations stored once (what the live hook leaves behind), then fork reads them.
const warmHome = join(root, 'warm');
const first = await forkSession(transcript, newId(), base(warmHome, true));
const warm = [];
for (let i = 0; i < runs; i += 1) {
  const t0 = performance.now();
  await forkSession(transcript, newId(), base(warmHome, false));
  warm.push(performance.now() - t0);
}
const env = cleanEnv({ RECALL_HOME: warmHome, RECALL_OLLAMA_LLM_MODEL: '' });
const cliRuns = [];
const fullRuns = [];
const bare = [];
for (let i = 0; i < runs; i += 1) {
  bare.push(timeRun(process.execPath, ['-e', '0'], { env }).ms);
  cliRuns.push(timeRun(process.execPath, [cli, 'endless', 'fork', transcript, '--no-model', '--json'], { env }).ms);
  // `--` is not on the fast path's list: the same fork through the full command-line program.
  fullRuns.push(timeRun(process.execPath, [cli, 'endless', 'fork', '--no-model', '--json', '--', transcript], { env }).ms);
}
rmSync(root, { recursive: true, force: true });

const result = {
  runs,
  toolUses: 2000,
  transcriptBytes: Buffer.byteLength(text),
  compressedResults: first.compressed,
  inProcessWarmMedianMs: round(median(warm)),
  inProcessColdMedianMs: round(median(cold)),
  cliWarmMedianMs: round(median(cliRuns)),
  cliFullProgramMedianMs: round(median(fullRuns)),
  bareNodeMedianMs: round(median(bare)),
};
console.log(`fork of a synthetic session: 2,000 tool uses, ${(result.transcriptBytes / 1e6).toFixed(1)} MB, ${first.compressed} results compressed; median of ${runs}`);
console.log(`  in-process, observations stored (warm)     ${result.inProcessWarmMedianMs} ms   (target: < 200 ms)`);
console.log(`  in-process, first fork, --no-model (cold)  ${result.inProcessColdMedianMs} ms`);
console.log(`  CLI process, warm                          ${result.cliWarmMedianMs} ms   (target: < 200 ms; bare node -e 0: ${result.bareNodeMedianMs} ms)`);
console.log(`  CLI process through the full program       ${result.cliFullProgramMedianMs} ms   (what \`recall endless fork\` took before its fast path)`);
recordResult('endlessFork', result);

function round(n) {
  return Math.round(n * 10) / 10;
}
