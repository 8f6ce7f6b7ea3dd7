// How soon `recall mcp` lists its tools: spawn the built bin (dist/cli/main.cjs mcp), write initialize,
// notifications/initialized and tools/list at once (as an agent that asks early does), and time spawn to
// the tools/list answer on stdout. A bare `node -e` that prints one line is spawned in the same run, arm
// after arm, as the floor any node process pays. Medians over `runs`; NODE_EXTRA_CA_CERTS unset in both
// arms; RECALL_HOME is a fresh temp dir (no store yet, as on a first start).
// Usage: npm run build && node bench/mcp-first-list.mjs [runs]
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { cleanEnv, median } from './measure.mjs';
import { recordResult } from './results.mjs';

const runs = Math.max(15, Number(process.argv[2] ?? 21));
const TARGET_MS = 120;
const cli = fileURLToPath(new URL('../dist/cli/main.cjs', import.meta.url));

const REQUESTS = [
  { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1.0.0' } } },
  { jsonrpc: '2.0', method: 'notifications/initialized' },
  { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} },
];

/** Spawns `args`, writes `input`, resolves the ms until a stdout line satisfies `done`, then kills the child. */
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
        if (done(line)) finish(null, performance.now() - started);
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

const home = mkdtempSync(join(tmpdir(), 'recall-bench-mcp-list-'));
try {
  const env = cleanEnv({ RECALL_HOME: home });
  const input = REQUESTS.map((request) => JSON.stringify(request)).join('\n') + '\n';
  const bare = [];
  const recall = [];
  // One unmeasured start of each warms the file cache.
  await timeUntilLine(['-e', 'console.log(1)'], '', env, () => true);
  await timeUntilLine([cli, 'mcp'], input, env, listsTools);
  for (let i = 0; i < runs; i += 1) {
    bare.push(await timeUntilLine(['-e', 'console.log(1)'], '', env, () => true));
    recall.push(await timeUntilLine([cli, 'mcp'], input, env, listsTools));
  }
  const round = (n) => Math.round(n * 10) / 10;
  const figures = {
    runs,
    firstListMedianMs: round(median(recall)),
    firstListMinMs: round(Math.min(...recall)),
    bareNodeMedianMs: round(median(bare)),
    overBareMs: round(median(recall) - median(bare)),
    targetMs: TARGET_MS,
    met: median(recall) <= TARGET_MS,
  };
  console.log(`recall mcp: spawn to the tools/list answer, median of ${runs} (NODE_EXTRA_CA_CERTS unset)`);
  console.log(`  recall mcp        ${figures.firstListMedianMs} ms (min ${figures.firstListMinMs}; target <= ${TARGET_MS} ms: ${figures.met ? 'met' : 'not met'})`);
  console.log(`  bare node -e      ${figures.bareNodeMedianMs} ms`);
  console.log(`  over bare node    ${figures.overBareMs} ms`);
  recordResult('mcpFirstList', figures);
} finally {
  rmSync(home, { recursive: true, force: true });
}
