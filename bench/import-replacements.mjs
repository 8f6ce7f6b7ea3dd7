// Importing into a big store (issue 29: "importing 230 lines into a 10k store replaced 398 memories"):
// 10,000 generated rules (bench/corpus.mjs) stored in one namespace, then `recall import` of 230 further
// rules from the same generator, as a second machine's export would bring. Counts the stored memories the
// import replaced and the lines held as proposed changes, twice: the stored rules the user's own (an import
// has less authority: it may only propose), and the stored rules themselves imports (equal authority: only
// the subject and verdict rules stand between a line and a replacement). Hash embedder, no model.
// Usage: npm run build && node bench/import-replacements.mjs [stored] [lines]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { memoryText } from './corpus.mjs';
import { recordResult } from './results.mjs';

const STORED = Number(process.argv[2] ?? 10_000);
const LINES = Number(process.argv[3] ?? 230);
const BATCH = 2_000;
const dist = new URL('../dist/', import.meta.url);
const load = (path) => import(new URL(path, dist).href);
const { openLanceStore } = await load('adapters/lance-store.js');
const { createHashEmbedder } = await load('embed/hash-embedder.js');
const { importMemories } = await load('store/import-memories.js');
const { formatMemoryLine } = await load('store/memory-lines.js');
const { configSchema } = await load('config/schema.js');

const embedder = createHashEmbedder();
const threshold = configSchema.parse({}).dedupe.threshold;
const root = mkdtempSync(join(tmpdir(), 'recall-bench-import-'));
const record = (id, content, provenance, at) => ({
  id, content, type: 'golden_rule', importance: 1, namespace: 'global', projectRoot: null, sessionId: null, source: 'claude',
  embedder: embedder.id, createdAt: at, lastSeenAt: at, seenCount: 1, provenance,
});

const figures = { stored: STORED, lines: LINES, embedder: embedder.id, model: 'none' };
try {
  for (const provenance of ['user', 'import']) {
    const store = await openLanceStore(join(root, provenance));
    for (let start = 0; start < STORED; start += BATCH) {
      const texts = Array.from({ length: Math.min(BATCH, STORED - start) }, (_, k) => memoryText(start + k));
      const vectors = await embedder.embed(texts);
      await store.restore(texts.map((content, k) => ({ ...record(`01STORED${String(start + k).padStart(18, '0')}`, content, provenance, '2026-01-01T00:00:00.000Z'), vector: vectors[k] })), embedder.id);
    }
    const lines = Array.from({ length: LINES }, (_, j) => formatMemoryLine({ ...record(`01IMPORT${String(j).padStart(18, '0')}`, memoryText(STORED + 1 + j * 37), null, '2026-06-01T00:00:00.000Z'), embedder: 'other' })).join('\n');
    const result = await importMemories(lines, { store, embedder, threshold, withStoreLock: (fn) => fn() });
    figures[provenance === 'user' ? 'storedByUser' : 'storedByImport'] = { imported: result.imported, replaced: result.superseded, proposed: result.proposed };
    console.log(`stored rules from ${provenance}: ${LINES} lines imported into ${STORED}: ${result.superseded} replaced, ${result.proposed} held as proposed changes`);
    await store.close();
  }
  recordResult('importReplacements', figures);
} finally {
  rmSync(root, { recursive: true, force: true });
}
