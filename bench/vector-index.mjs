// The vector index recall builds (IVF-RQ) against the one it built before (IVF-PQ, 16 values per
// sub-vector), on one store: the same rows, the same queries, searched as `recall search --mode
// vector` searches (probes, candidates and exact re-rank as shipped). For each kind: the time to
// build the index, the median vector search, and agreement with an exact (flat) search of the whole
// table: queries whose top 10 is the same, the share of the top 10 in common, and queries whose best
// score is the same.
// Usage: npm run build && node bench/vector-index.mjs [memories] [queries]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { buildStoreInChild, median } from './measure.mjs';
import { recordResult } from './results.mjs';
import { benchEmbedder } from './build-store.mjs';
import { CORPUS, nearText } from './corpus.mjs';

const size = Number(process.argv[2] ?? 1_000_000);
const queryCount = Number(process.argv[3] ?? 200);
const dist = new URL('../dist/', import.meta.url);
const { openLanceStore } = await import(new URL('adapters/lance-store.js', dist).href);
const { cosineSimilarity } = await import(new URL('store/dedupe.js', dist).href);
const { searchMemories } = await import(new URL('search/search-memories.js', dist).href);
const { vectorScoreOf } = await import(new URL('search/fuse-rankings.js', dist).href);
const lancedb = await import('@lancedb/lancedb');

const TOP = 10;
const WORDS = ['how', 'should', 'we', 'store', 'money', 'retry', 'tokens', 'cache', 'logging', 'tests', 'deploy', 'flags', 'timestamps', 'errors', 'the', 'api', 'backoff', 'jwt', 'docker', 'ci'];
/** Half short word mixes, half stored memories without their reference (see nearText). */
function queryText(k) {
  if (k % 2 === 0) return Array.from({ length: 3 + (k % 5) }, (_, j) => WORDS[(k * 13 + j * 7) % WORDS.length]).join(' ');
  return nearText((k * 48_271) % size);
}

/** Best first by exact cosine similarity (as a search score), ties by id: the order recall reports. */
function ranked(rows, vector) {
  return rows
    .map((row) => ({ id: row.id, score: vectorScoreOf(cosineSimilarity(vector, Float32Array.from(row.vector))) }))
    .sort((a, b) => b.score - a.score || a.id.localeCompare(b.id))
    .slice(0, TOP);
}

const root = mkdtempSync(join(tmpdir(), 'recall-bench-index-'));
try {
  const home = join(root, 'home');
  console.error(`building ${size}`);
  // Built as the worker builds it: its upkeep makes the IVF-RQ index (rebuilt below, timed, for both kinds).
  buildStoreInChild(home, size, { maintain: true });
  const dbDir = join(home, 'db');
  const db = await lancedb.connect(dbDir);
  const table = await db.openTable('memories');
  const store = await openLanceStore(dbDir);
  const queries = Array.from({ length: queryCount }, (_, k) => queryText(k));
  const vectors = await benchEmbedder.embed(queries);
  const dimension = vectors[0].length;

  console.error(`exact search for ${queryCount} queries`);
  const exact = [];
  for (const vector of vectors) {
    exact.push(ranked(await table.vectorSearch(vector).distanceType('cosine').select(['id', 'vector']).bypassVectorIndex().limit(TOP).toArray(), vector));
  }

  const kinds = {
    ivfRq: lancedb.Index.ivfRq({ distanceType: 'cosine' }),
    ivfPq: lancedb.Index.ivfPq({ distanceType: 'cosine', numSubVectors: dimension / 16 }),
  };
  const rows = [];
  for (const [kind, config] of Object.entries(kinds)) {
    const started = performance.now();
    await table.createIndex('vector', { config, replace: true });
    const buildS = (performance.now() - started) / 1000;
    const times = [];
    let sameTop = 0;
    let common = 0;
    let sameBest = 0;
    for (let i = 0; i < vectors.length; i += 1) {
      const t0 = performance.now();
      const found = await searchMemories({ query: queries[i], mode: 'vector', filters: {}, limit: TOP, minScore: 0 }, { store, embedder: async () => benchEmbedder });
      times.push(performance.now() - t0);
      const got = found.map((hit) => ({ id: hit.record.id, score: hit.score }));
      const want = exact[i];
      if (got.map((g) => g.id).join() === want.map((w) => w.id).join()) sameTop += 1;
      const wanted = new Set(want.map((w) => w.id));
      common += got.filter((g) => wanted.has(g.id)).length / want.length;
      if (got[0] !== undefined && Math.abs(got[0].score - want[0].score) < 1e-6) sameBest += 1;
    }
    const row = {
      kind, buildS: round(buildS), searchMedianMs: round(median(times)),
      sameTop10: sameTop, top10InCommonPct: round((100 * common) / vectors.length), sameBestScore: sameBest,
    };
    console.error(`measured ${kind}: ${JSON.stringify(row)}`);
    rows.push(row);
  }
  table.close();
  db.close();
  await store.close();

  console.log(`Vector index kinds on ${size} memories (hash embedder, ${dimension} dims), ${queryCount} queries: \`recall search --mode vector\` (top ${TOP}) against an exact search`);
  console.log('index    built s  search ms  same top 10  top 10 in common  same best score');
  for (const r of rows) {
    console.log(`${r.kind.padEnd(7)}  ${String(r.buildS).padStart(7)}  ${String(r.searchMedianMs).padStart(9)}  ${`${r.sameTop10}/${queryCount}`.padStart(11)}  ${`${r.top10InCommonPct}%`.padStart(16)}  ${`${r.sameBestScore}/${queryCount}`.padStart(15)}`);
  }
  recordResult('vectorIndex', { memories: size, corpus: CORPUS, queries: queryCount, top: TOP, embedder: benchEmbedder.id, rows });
} finally {
  rmSync(root, { recursive: true, force: true });
}

function round(n) {
  return Math.round(n * 10) / 10;
}
