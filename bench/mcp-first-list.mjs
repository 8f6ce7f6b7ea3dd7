// How soon `recall mcp` lists its tools: spawn the built bin (dist/cli/main.cjs mcp), write initialize,
// notifications/initialized and tools/list at once (as an agent that asks early does), and time spawn to
// the tools/list answer on stdout. A bare `node -e` that prints one line is spawned in the same run, arm
// after arm, as the floor any node process pays. Medians over `runs`; NODE_EXTRA_CA_CERTS unset in both
// arms; RECALL_HOME is a fresh temp dir (no store yet, as on a first start). Also timed: spawn to the
// answer of a first tools/call (memory_recent) sent as soon as the list came, so a fast list that only
// moved the loading to the first call shows there. With --baseline <entry> another build (e.g. main's,
// copied before a change: .tmp/main/dist/cli/main.cjs) runs in the same loop. The load average is recorded.
// Usage: npm run build && node bench/mcp-first-list.mjs [runs] [--baseline <entry>]
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { cleanEnv, median } from './measure.mjs';
import { recordResult } from './results.mjs';

const argv = process.argv.slice(2);
const baselineAt = argv.indexOf('--baseline');
const baseline = baselineAt === -1 ? null : resolve(argv[baselineAt + 1]);
const positional = argv.filter((_, i) => i !== baselineAt && i !== baselineAt + 1);
const runs = Math.max(15, Number(positional[0] ?? 21));
const TARGET_MS = 120;
const cli = fileURLToPath(new URL('../dist/cli/main.cjs', import.meta.url));

const REQUESTS = [
  { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1.0.0' } } },
  { jsonrpc: '2.0', method: 'notifications/initialized' },
  { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} },
];

/** Spawns `args`, writes `input`, resolves the ms until a stdout line satisfies `done` (given the child's stdin), then kills the child. */
function timeUntilLine(args, input, env, done) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, args, { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let buffered = '';
    let settled = false;
    const finish = (error, ms) => {
      if (settled) return;
      settled = true;
      child.kill();
      if (error) reject(error);
      else resolve(ms);
    };
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk) => {
      buffered += chunk;
      let newline;
      while ((newline = buffered.indexOf('\n')) >= 0) {
        const line = buffered.slice(0, newline);
        buffered = buffered.slice(newline + 1);
        if (done(line, child.stdin)) finish(null, performance.now() - started);
      }
    });
    child.on('error', (err) => finish(err));
    child.on('exit', (code) => finish(new Error(`${args.join(' ')} exited ${code} before answering`)));
    child.stdin.on('error', () => undefined);
    if (input) child.stdin.write(input);
  });
}

function listsTools(line) {
  const message = JSON.parse(line);
  if (message.id !== 2) return false;
  const names = message.result?.tools?.map((tool) => tool.name) ?? [];
  if (!names.includes('memory_search')) throw new Error(`tools/list answered without memory_search: ${line}`);
  return true;
}

const CALL = { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'memory_recent', arguments: {} } };

/** Sends the first call once the list came; done at the call's answer. */
function answersFirstCall(line, stdin) {
  const message = JSON.parse(line);
  if (message.id === 2) stdin.write(`${JSON.stringify(CALL)}\n`);
  if (message.id !== 3) return false;
  if (message.result?.isError) throw new Error(`the first call failed: ${line}`);
  return true;
}

const load = () => loadavg().map((n) => Math.round(n * 100) / 100);
const loadBefore = load();
const home = mkdtempSync(join(tmpdir(), 'recall-bench-mcp-list-'));
try {
  const env = cleanEnv({ RECALL_HOME: home });
  const input = REQUESTS.map((request) => JSON.stringify(request)).join('\n') + '\n';
  const bare = [];
  const entries = [{ name: 'this build', cli }, ...(baseline === null ? [] : [{ name: 'baseline', cli: baseline }])];
  const arms = entries.map((entry) => ({ ...entry, list: [], call: [] }));
  // One unmeasured start of each warms the file cache.
  await timeUntilLine(['-e', 'console.log(1)'], '', env, () => true);
  for (const arm of arms) await timeUntilLine([arm.cli, 'mcp'], input, env, answersFirstCall);
  for (let i = 0; i < runs; i += 1) {
    bare.push(await timeUntilLine(['-e', 'console.log(1)'], '', env, () => true));
    for (const arm of arms) {
      arm.list.push(await timeUntilLine([arm.cli, 'mcp'], input, env, listsTools));
      arm.call.push(await timeUntilLine([arm.cli, 'mcp'], input, env, answersFirstCall));
    }
  }
  const round = (n) => Math.round(n * 10) / 10;
  const [recall] = arms;
  const figures = {
    runs,
    loadBefore,
    loadAfter: load(),
    entry: 'dist/cli/main.cjs mcp',
    firstListMedianMs: round(median(recall.list)),
    firstListMinMs: round(Math.min(...recall.list)),
    firstCallMedianMs: round(median(recall.call)),
    bareNodeMedianMs: round(median(bare)),
    overBareMs: round(median(recall.list) - median(bare)),
    ...(arms[1] === undefined ? {} : { baselineFirstListMedianMs: round(median(arms[1].list)), baselineFirstCallMedianMs: round(median(arms[1].call)) }),
    targetMs: TARGET_MS,
    met: median(recall.list) <= TARGET_MS,
  };
  console.log(`recall mcp: spawn to the tools/list answer, and to a first call's answer, median of ${runs} (NODE_EXTRA_CA_CERTS unset; load ${loadBefore.join(' ')})`);
  for (const arm of arms) console.log(`  ${arm.name.padEnd(12)} list ${round(median(arm.list))} ms (min ${round(Math.min(...arm.list))}), first call ${round(median(arm.call))} ms`);
  console.log(`  bare node -e      ${figures.bareNodeMedianMs} ms; this build's list over bare node ${figures.overBareMs} ms (target <= ${TARGET_MS} ms: ${figures.met ? 'met' : 'not met'})`);
  recordResult('mcpFirstList', figures);
} finally {
  rmSync(home, { recursive: true, force: true });
}
