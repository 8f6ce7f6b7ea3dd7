// Memories replaced by a memory that no longer exists (stores written before forgetting relinked
// chains): what finding them costs beside the upkeep-due test that runs after every capture (so the
// check runs in each round of upkeep instead, not in that test).
// A store of N generated rules (bench/corpus.mjs), one in 20 replaced by the next row, and the newer
// versions of `dangling` of them deleted. Times (median of 5) the plain upkeep-due check of before this change
// (isMaintenanceDue), the dangling check alone (findDanglingVersions), and the one repair that follows.
// Usage: npm run build && node bench/dangling-versions.mjs [memories] [dangling]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { memoryText } from './corpus.mjs';
import { recordResult } from './results.mjs';

const MEMORIES = Number(process.argv[2] ?? 100_000);
const DANGLING = Number(process.argv[3] ?? 100);
const BATCH = 5_000;
const RUNS = 5;
const dist = new URL('../dist/', import.meta.url);
const load = (path) => import(new URL(path, dist).href);
const { openLanceStore } = await load('adapters/lance-store.js');
const { createHashEmbedder } = await load('embed/hash-embedder.js');
const { findDanglingVersions } = await load('adapters/lance-dangling.js');
const { isMaintenanceDue } = await load('adapters/lance-index.js');

const embedder = createHashEmbedder();
const root = mkdtempSync(join(tmpdir(), 'recall-bench-dangling-'));
const idOf = (i) => `01ROW${String(i).padStart(21, '0')}`;
const at = '2026-01-01T00:00:00.000Z';
const policy = { vectorIndexMinRows: 1_000_000, optimizeEveryVersions: 1_000_000 };

try {
  const store = await openLanceStore(root);
  let replaced = 0;
  let dangling = 0;
  for (let start = 0; start < MEMORIES; start += BATCH) {
    const texts = Array.from({ length: Math.min(BATCH, MEMORIES - start) }, (_, k) => memoryText(start + k));
    const vectors = await embedder.embed(texts);
    await store.restore(texts.map((content, k) => {
      const i = start + k;
      let supersededBy = null;
      if (i % 20 === 0) {
        replaced += 1;
        supersededBy = idOf(i + 1);
      }
      return {
        id: idOf(i), content, type: 'golden_rule', importance: 1, namespace: 'global', projectRoot: null, sessionId: null, source: 'claude',
        embedder: embedder.id, createdAt: at, lastSeenAt: at, seenCount: 1, provenance: 'user', supersededBy, supersededAt: supersededBy === null ? null : at, vector: vectors[k],
      };
    }), embedder.id);
  }
  // Indexes as upkeep leaves them (BTREE on id and superseded_by from 10,000 rows), then the newer
  // versions of `DANGLING` chains deleted the way forgetting did before it relinked.
  await store.maintain({ vectorIndexMinRows: 1_000_000, optimizeEveryVersions: 1 });
  const gone = [];
  for (let i = 0; i < MEMORIES && gone.length < DANGLING; i += 40) gone.push(idOf(i + 1));
  dangling = await store.delete(gone);
  const { connect } = await import('@lancedb/lancedb');
  const db = await connect(root);
  const table = await db.openTable('memories');
  const median = async (fn) => {
    const ms = [];
    for (let r = 0; r < RUNS; r += 1) {
      const t0 = performance.now();
      await fn();
      ms.push(performance.now() - t0);
    }
    return Math.round(ms.sort((a, b) => a - b)[Math.floor(RUNS / 2)] * 10) / 10;
  };
  const found = (await findDanglingVersions(table)).length;
  const dueMs = await median(() => isMaintenanceDue(table, 384, policy));
  const danglingMs = await median(() => findDanglingVersions(table));
  const t0 = performance.now();
  const relinked = await store.relinkDanglingVersions();
  const relinkMs = Math.round((performance.now() - t0) * 10) / 10;
  const after = (await store.danglingVersions()).length;
  table.close();
  db.close();
  await store.close();
  const figures = { memories: MEMORIES, replaced, dangling, found, relinked, after, upkeepDueCheckMs: dueMs, danglingCheckMs: danglingMs, relinkMs, runs: RUNS, embedder: embedder.id };
  console.log(`${MEMORIES} memories, ${replaced} replaced, ${dangling} by a missing id: found ${found}, relinked ${relinked}, left ${after}`);
  console.log(`upkeep-due check ${dueMs} ms; dangling check ${danglingMs} ms (medians of ${RUNS}); relink ${relinkMs} ms`);
  recordResult('danglingVersions', figures);
} finally {
  rmSync(root, { recursive: true, force: true });
}
