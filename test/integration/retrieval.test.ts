/**
 * Retrieval quality on a small labelled set (test/fixtures/retrieval/labelled.json): hit@3 of vector-only,
 * text-only and hybrid search through the real LanceDB store, with the tiny transformers model and with
 * the hash embedder. The figures are printed, and written to bench/retrieval-results.json for the README when
 * RECALL_WRITE_RESULTS=1 (as `npm run bench` sets it).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openLanceStore } from '../../src/adapters/lance-store.js';
import type { LanceStore } from '../../src/adapters/lance-store.js';
import { IMPORTANCE_BY_TYPE } from '../../src/core/memory.js';
import type { MemoryType } from '../../src/core/memory.js';
import type { Embedder } from '../../src/core/ports.js';
import { createEmbedder } from '../../src/app/create-embedder.js';
import type { FusionMethod } from '../../src/search/fuse-rankings.js';
import { searchMemories } from '../../src/search/search-memories.js';
import type { SearchMode } from '../../src/search/search-memories.js';
import { buildTinyModel, DEFAULT_TINY_VOCAB } from '../support/tiny-model.js';

interface Labelled {
  memories: Array<{ id: string; type: MemoryType; namespace: string; content: string }>;
  queries: Array<{ query: string; kind: 'exact' | 'paraphrase'; expected: string[] }>;
}

interface Figures {
  all: number;
  exact: number;
  paraphrase: number;
}

type Arm = 'vector' | 'text' | 'hybrid' | 'hybrid-rrf';

const SET = JSON.parse(readFileSync(new URL('../fixtures/retrieval/labelled.json', import.meta.url), 'utf8')) as Labelled;
const K = 3;
/** Hybrid may lose at most this share of queries to the better single mode (one query in twenty-two). */
const TOLERANCE = 0.05;
const RESULTS_FILE = new URL('../../bench/retrieval-results.json', import.meta.url);

const root = mkdtempSync(join(tmpdir(), 'recall-retrieval-'));
const results: Record<string, Record<Arm, Figures>> = {};

afterAll(() => {
  rmSync(root, { recursive: true, force: true });
  // The tracked figures change only when asked for (npm run bench), not on every test run.
  if (Object.keys(results).length === 0 || process.env.RECALL_WRITE_RESULTS !== '1') return;
  const record = {
    set: 'test/fixtures/retrieval/labelled.json',
    memories: SET.memories.length,
    queries: { all: SET.queries.length, exact: count('exact'), paraphrase: count('paraphrase') },
    metric: `hit@${K}: share of queries with an expected memory among the top ${K}`,
    lancedb: lancedbVersion(),
    embedders: results,
    measuredAt: new Date().toISOString(),
  };
  writeFileSync(RESULTS_FILE, `${JSON.stringify(record, null, 2)}\n`);
});

function lancedbVersion(): string {
  const pkg = new URL('../../node_modules/@lancedb/lancedb/package.json', import.meta.url);
  return (JSON.parse(readFileSync(pkg, 'utf8')) as { version: string }).version;
}

function count(kind: 'exact' | 'paraphrase'): number {
  return SET.queries.filter((q) => q.kind === kind).length;
}

/** Every word of the set, so the tiny model has a vector for each (unknown words all map to [UNK]). */
function vocabulary(): string[] {
  const text = [...SET.memories.map((m) => m.content), ...SET.queries.map((q) => q.query)].join(' ').toLowerCase();
  return [...new Set([...DEFAULT_TINY_VOCAB, ...(text.match(/[a-z0-9]+/g) ?? [])])];
}

async function loadStore(embedder: Embedder, dir: string): Promise<LanceStore> {
  const store = await openLanceStore(dir);
  const vectors = await embedder.embed(SET.memories.map((m) => m.content));
  const at = '2024-05-01T10:00:00.000Z';
  await store.restore(
    SET.memories.map((m, i) => ({
      ...m, importance: IMPORTANCE_BY_TYPE[m.type], projectRoot: null, sessionId: null, source: 'fixture',
      embedder: embedder.id, createdAt: at, lastSeenAt: at, seenCount: 1, vector: vectors[i] as Float32Array,
    })),
    embedder.id,
  );
  return store;
}

async function measure(store: LanceStore, embedder: Embedder): Promise<Record<Arm, Figures>> {
  const arms: Array<[Arm, SearchMode, FusionMethod]> = [
    ['vector', 'vector', 'relative'], ['text', 'text', 'relative'], ['hybrid', 'hybrid', 'relative'], ['hybrid-rrf', 'hybrid', 'rrf'],
  ];
  const figures = {} as Record<Arm, Figures>;
  for (const [arm, mode, method] of arms) {
    const hits = { exact: 0, paraphrase: 0 };
    for (const q of SET.queries) {
      const found = await searchMemories(
        { query: q.query, mode, filters: {}, limit: K, minScore: 0, fusion: { method } },
        { store, embedder: async () => embedder },
      );
      if (found.some((hit) => q.expected.includes(hit.record.id))) hits[q.kind] += 1;
    }
    figures[arm] = {
      all: round((hits.exact + hits.paraphrase) / SET.queries.length),
      exact: round(hits.exact / count('exact')),
      paraphrase: round(hits.paraphrase / count('paraphrase')),
    };
  }
  return figures;
}

function round(n: number): number {
  return Math.round(n * 1000) / 1000;
}

describe.each([
  ['tiny transformers model', 'tiny'],
  ['hash embedder', 'hash'],
] as const)('retrieval on the labelled set with the %s', (label, kind) => {
  let store: LanceStore;
  let figures: Record<Arm, Figures>;

  beforeAll(async () => {
    const dir = join(root, kind);
    let spec = 'hash';
    if (kind === 'tiny') spec = `transformers:${(await buildTinyModel(join(dir, 'models'), { vocab: vocabulary(), dim: 64 })).dir}`;
    const embedder = createEmbedder(spec, { modelsDir: join(dir, 'models'), allowDownload: false, ollamaHost: 'http://127.0.0.1:9', timeoutMs: 5000 });
    store = await loadStore(embedder, join(dir, 'db'));
    figures = await measure(store, embedder);
    results[embedder.id.startsWith('transformers:') ? 'tiny-transformers' : embedder.id] = figures;
    console.log(`hit@${K} with the ${label} (${SET.queries.length} queries: ${count('exact')} exact-term, ${count('paraphrase')} paraphrase)`);
    for (const [arm, f] of Object.entries(figures)) console.log(`  ${arm.padEnd(11)} all ${f.all.toFixed(2)}  exact ${f.exact.toFixed(2)}  paraphrase ${f.paraphrase.toFixed(2)}`);
  });

  afterAll(async () => {
    await store?.close();
  });

  it('ranks expected memories in the top 3 with hybrid at least as often as the better single mode', () => {
    expect(figures.hybrid.all).toBeGreaterThanOrEqual(Math.max(figures.vector.all, figures.text.all) - TOLERANCE);
  });

  it('finds every exact-term query with text search and with hybrid search', () => {
    expect(figures.text.exact).toBe(1);
    expect(figures.hybrid.exact).toBe(1);
  });
});
