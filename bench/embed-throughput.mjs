// Embedding throughput in sentences per second, in batches of 32, through the built embedders:
// the hash embedder, and the real transformers loading and inference code on a tiny random-weight
// BERT-style model (built offline by scripts/build-tiny-model.mjs). The tiny model measures the
// pipeline's own overhead, not a real model: design notes section 5 has MiniLM at 57-73 sentences/s.
// Usage: npm run build && node bench/embed-throughput.mjs [batches]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { buildTinyModel, DEFAULT_TINY_VOCAB } from '../scripts/build-tiny-model.mjs';
import { median } from './measure.mjs';
import { recordResult } from './results.mjs';

const batches = Number(process.argv[2] ?? 30);
const BATCH = 32;
const dist = new URL('../dist/', import.meta.url);
const { createEmbedder } = await import(new URL('app/create-embedder.js', dist).href);

const WORDS = ['you', 'must', 'use', 'pnpm', 'never', 'npm', 'store', 'money', 'as', 'integer', 'cents', 'always', 'run', 'integration', 'tests', 'before', 'a', 'release', 'the', 'api', 'returns', 'json'];
function sentence(i) {
  return Array.from({ length: 8 + (i % 17) }, (_, k) => WORDS[(i * 31 + k * 7) % WORDS.length]).join(' ') + '.';
}

/** Median sentences/s over `batches` batches of 32 distinct sentences, after one warm-up batch. */
async function measure(embedder) {
  const loadStarted = performance.now();
  await embedder.embed([sentence(0)]);
  const firstCallMs = performance.now() - loadStarted;
  const rates = [];
  for (let b = 0; b < batches; b += 1) {
    const texts = Array.from({ length: BATCH }, (_, k) => sentence(b * BATCH + k + 1));
    const started = performance.now();
    const vectors = await embedder.embed(texts);
    const ms = performance.now() - started;
    if (vectors.length !== BATCH) throw new Error(`${embedder.id} returned ${vectors.length} vectors`);
    rates.push((BATCH * 1000) / ms);
  }
  return { embedder: embedder.id.replace(/transformers:.*\//, 'transformers:…/'), sentencesPerS: Math.round(median(rates)), firstCallMs: Math.round(firstCallMs) };
}

const root = mkdtempSync(join(tmpdir(), 'recall-bench-embed-'));
try {
  const ctx = { modelsDir: join(root, 'models'), allowDownload: false, ollamaHost: 'http://127.0.0.1:9', timeoutMs: 10_000 };
  const tiny = await buildTinyModel(join(root, 'models'), { vocab: [...DEFAULT_TINY_VOCAB, ...WORDS] });
  const rows = [await measure(createEmbedder('hash', ctx)), await measure(createEmbedder(`transformers:${tiny.dir}`, ctx))];
  console.log(`Embedding throughput, batches of ${BATCH}, median of ${batches} batches (first call includes model load):`);
  for (const r of rows) console.log(`  ${r.embedder.padEnd(28)} ${String(r.sentencesPerS).padStart(8)} sentences/s   first call ${r.firstCallMs} ms`);
  recordResult('embedThroughput', { batch: BATCH, batches, tinyModelDim: tiny.dim, rows });
} finally {
  rmSync(root, { recursive: true, force: true });
}
