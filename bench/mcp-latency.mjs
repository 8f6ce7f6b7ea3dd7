// `memory_search` latency through the MCP server (`node dist/cli/main.js mcp`), as an agent sees it:
// - start: spawn to initialized (the server loads no LanceDB, transformers or ollama to get there);
// - first call: the first memory_search of a fresh server (loads LanceDB and the embedder);
// - warm call: later memory_search calls on the same server (different queries each time).
// Each is the median over `runs` fresh servers (warm: median of all warm calls), measured with the MCP
// SDK's own Client + StdioClientTransport. A cold `recall search --json` process on the same store is
// timed too, for comparison. Two embedders: `hash` (no model: LanceDB + SDK alone) and the tiny real
// transformers model (library import and ONNX session load; a real MiniLM adds ~0.6-0.8 s of model load
// on the first call and ~12 ms per query). NODE_EXTRA_CA_CERTS is unset in every arm.
// Usage: npm run build && node bench/mcp-latency.mjs [runs] [memories] [warm calls per server]
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { buildTinyModel } from '../scripts/build-tiny-model.mjs';
import { cleanEnv, median, timeRun } from './measure.mjs';
import { recordResult } from './results.mjs';
import { templateText } from './corpus.mjs';

const runs = Number(process.argv[2] ?? 7);
const size = Number(process.argv[3] ?? 1000);
const warmCalls = Number(process.argv[4] ?? 10);
const dist = new URL('../dist/', import.meta.url);
const cli = fileURLToPath(new URL('cli/main.js', dist));
const { openLanceStore } = await import(new URL('adapters/lance-store.js', dist).href);
const { createEmbedder } = await import(new URL('app/create-embedder.js', dist).href);
const { resolveProject } = await import(new URL('project/resolve-project.js', dist).href);

const QUERIES = [
  'how should money be stored in the database',
  'which package manager do we use',
  'retry policy for outgoing calls',
  'how are timestamps stored',
  'what do we do before a release',
  'logging format',
  'docker images and deploys',
  'auth tokens lifetime',
  'feature flags cleanup',
  'tests that touch the cache',
  'error codes of the api',
  'mobile app builds',
];
const root = mkdtempSync(join(tmpdir(), 'recall-bench-mcp-'));
const project = join(root, 'shop');
mkdirSync(project, { recursive: true });
writeFileSync(join(project, 'package.json'), '{}');
const namespace = resolveProject(project).namespace;

/** A store of `size` memories, 4 in 5 in the server's project and the rest global, embedded by `embedderId`. */
async function buildStore(home, embedderId) {
  const embedder = createEmbedder(embedderId, { modelsDir: join(home, 'models'), allowDownload: false, ollamaHost: 'http://127.0.0.1:9', timeoutMs: 10_000 });
  const store = await openLanceStore(join(home, 'db'));
  const BATCH = 500;
  for (let from = 0; from < size; from += BATCH) {
    const texts = Array.from({ length: Math.min(BATCH, size - from) }, (_, k) => templateText(from + k));
    const vectors = await embedder.embed(texts);
    await store.insert(
      texts.map((content, k) => ({
        content, type: 'preference', importance: 0.7, namespace: (from + k) % 5 === 0 ? 'global' : namespace,
        projectRoot: null, sessionId: null, source: 'bench', vector: vectors[k],
      })),
      embedder.id,
    );
  }
  await store.optimize();
  await store.close();
}

async function measureServer(env) {
  const started = performance.now();
  const transport = new StdioClientTransport({ command: process.execPath, args: [cli, 'mcp'], cwd: project, env, stderr: 'pipe' });
  const client = new Client({ name: 'bench', version: '1.0.0' });
  await client.connect(transport);
  const startMs = performance.now() - started;
  const search = async (query) => {
    const t = performance.now();
    const result = await client.callTool({ name: 'memory_search', arguments: { query } });
    const ms = performance.now() - t;
    if (result.isError || !String(result.content[0]?.text).startsWith('1. ')) throw new Error(`memory_search failed: ${JSON.stringify(result.content)}`);
    return ms;
  };
  const firstMs = await search(QUERIES[0]);
  const warm = [];
  for (let i = 0; i < warmCalls; i += 1) warm.push(await search(QUERIES[(i + 1) % QUERIES.length]));
  await client.close();
  return { startMs, firstMs, warm };
}

async function measureArm(name, embedderId, extraEnv = {}) {
  const home = join(root, `home-${name}`);
  const built = performance.now();
  await buildStore(home, embedderId);
  const buildS = (performance.now() - built) / 1000;
  const env = cleanEnv({ RECALL_HOME: home, RECALL_EMBEDDER: embedderId, RECALL_ALLOW_MODEL_DOWNLOAD: 'false', LANCEDB_LOG: 'error', ...extraEnv });
  const start = [];
  const first = [];
  const warm = [];
  const cliSearch = [];
  for (let i = 0; i < runs; i += 1) {
    const run = await measureServer(env);
    start.push(run.startMs);
    first.push(run.firstMs);
    warm.push(...run.warm);
    cliSearch.push(timeRun(process.execPath, [cli, 'search', QUERIES[i % QUERIES.length], '--json'], { env }).ms);
  }
  return {
    arm: name,
    embedder: embedderId.startsWith('transformers:') ? 'transformers:tiny' : embedderId,
    buildS: round(buildS),
    startMs: round(median(start)),
    firstCallMs: round(median(first)),
    startPlusFirstMs: round(median(start.map((s, i) => s + first[i]))),
    warmCallMs: round(median(warm)),
    warmCallP90Ms: round([...warm].sort((a, b) => a - b)[Math.floor(warm.length * 0.9)]),
    cliSearchProcessMs: round(median(cliSearch)),
  };
}

const rows = [];
try {
  const bare = [];
  for (let i = 0; i < runs; i += 1) bare.push(timeRun(process.execPath, ['-e', '0'], { env: cleanEnv() }).ms);
  rows.push(await measureArm('hash', 'hash'));
  console.error('measured hash');
  const model = await buildTinyModel(join(root, 'models'));
  rows.push(await measureArm('transformers', `transformers:${model.dir}`));
  console.error('measured transformers');

  const bareMs = round(median(bare));
  console.log(`memory_search through \`recall mcp\`, ${size} memories (4/5 in the server's project), medians over ${runs} fresh servers`);
  console.log(`(${warmCalls} warm calls each); NODE_EXTRA_CA_CERTS unset; bare \`node -e 0\`: ${bareMs} ms\n`);
  console.log('embedder           start ms  first call ms  start+first ms  warm call ms  warm p90 ms  `recall search` process ms');
  for (const r of rows) {
    console.log(
      `${r.embedder.padEnd(17)}  ${String(r.startMs).padStart(8)}  ${String(r.firstCallMs).padStart(13)}  ${String(r.startPlusFirstMs).padStart(14)}  ` +
        `${String(r.warmCallMs).padStart(12)}  ${String(r.warmCallP90Ms).padStart(11)}  ${String(r.cliSearchProcessMs).padStart(26)}`,
    );
  }
  recordResult('mcpLatency', { runs, memories: size, warmCallsPerServer: warmCalls, bareNodeMedianMs: bareMs, rows });
} finally {
  rmSync(root, { recursive: true, force: true });
}

function round(n) {
  return Math.round(n * 10) / 10;
}
