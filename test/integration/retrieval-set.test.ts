/**
 * Retrieval quality on the generated labelled set (test/support/retrieval-set.ts: 3k+ memories of four
 * kinds, 350 questions) with the hash embedder, through the real LanceDB store: R@1, R@5, R@10 and
 * MRR (over the top 10) of hybrid, vector-only and text-only search, and of a plain stemmed BM25
 * computed in the same run. With RECALL_WRITE_RESULTS=1 (`npm run bench`) the figures go to
 * bench/results.json under `retrievalSet`.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openLanceStore, type LanceStore } from '../../src/adapters/lance-store.js';
import { IMPORTANCE_BY_TYPE } from '../../src/core/memory.js';
import { createHashEmbedder } from '../../src/embed/hash-embedder.js';
import { CANDIDATE_POOL, searchMemories, type SearchMode } from '../../src/search/search-memories.js';
import { searchTextSide } from '../../src/search/search-sides.js';
import { buildPlainBm25 } from '../support/plain-bm25.js';
import { buildRetrievalSet, type QuestionKind } from '../support/retrieval-set.js';

const SET = buildRetrievalSet();
const embedder = createHashEmbedder();
const root = mkdtempSync(join(tmpdir(), 'recall-retrieval-set-'));
const RESULTS_FILE = process.env.BENCH_RESULTS_FILE ?? new URL('../../bench/results.json', import.meta.url);

type Arm = SearchMode | 'plainBm25';
interface Figures { r1: number; r5: number; r10: number; mrr: number }

let store: LanceStore;
/** Per arm, the top 10 ids of each question, in the set's order. */
const ranked = new Map<Arm, string[][]>();
/** Hybrid's top 10 when 50 results are asked for. */
const hybridAt50: string[][] = [];

beforeAll(async () => {
  store = await openLanceStore(join(root, 'db'));
  const vectors = await embedder.embed(SET.memories.map((m) => m.content));
  await store.restore(
    SET.memories.map((m, i) => ({
      ...m, importance: IMPORTANCE_BY_TYPE[m.type], projectRoot: null, sessionId: null, source: 'fixture',
      embedder: embedder.id, lastSeenAt: m.createdAt, seenCount: 1, vector: vectors[i] as Float32Array,
    })),
    embedder.id,
  );
  const search = async (query: string, mode: SearchMode, limit: number) =>
    (await searchMemories({ query, mode, filters: {}, limit, minScore: 0 }, { store, embedder: async () => embedder })).map((h) => h.record.id);
  for (const mode of ['hybrid', 'vector', 'text'] as const) {
    const lists: string[][] = [];
    for (const q of SET.questions) lists.push(await search(q.query, mode, 10));
    ranked.set(mode, lists);
  }
  for (const q of SET.questions) hybridAt50.push((await search(q.query, 'hybrid', 50)).slice(0, 10));
  const bm25 = buildPlainBm25(SET.memories);
  ranked.set('plainBm25', SET.questions.map((q) => bm25.search(q.query, 10)));
}, 600_000);

afterAll(async () => {
  await store?.close();
  rmSync(root, { recursive: true, force: true });
});

function figures(arm: Arm, kind?: QuestionKind): Figures {
  const lists = ranked.get(arm) ?? [];
  const chosen = SET.questions.map((q, i) => ({ q, list: lists[i] ?? [] })).filter(({ q }) => kind === undefined || q.kind === kind);
  const rankOf = ({ q, list }: (typeof chosen)[number]) => list.indexOf(q.expected) + 1;
  const share = (k: number) => round(chosen.filter((c) => rankOf(c) > 0 && rankOf(c) <= k).length / chosen.length);
  const mrr = round(chosen.reduce((sum, c) => sum + (rankOf(c) > 0 ? 1 / rankOf(c) : 0), 0) / chosen.length);
  return { r1: share(1), r5: share(5), r10: share(10), mrr };
}

function round(n: number): number {
  return Math.round(n * 1000) / 1000;
}

describe('retrieval on the generated labelled set, hash embedder', () => {
  it('is a set of at least 3,000 memories of four kinds and 300 questions', () => {
    expect(SET.memories.length).toBeGreaterThanOrEqual(3000);
    expect(SET.questions.length).toBeGreaterThanOrEqual(300);
    expect(new Set(SET.memories.map((m) => m.type)).size).toBeGreaterThanOrEqual(4);
  });

  it('ranks with hybrid search never worse than the better of its vector and text sides (R@1, R@5, R@10, MRR)', () => {
    const arms = Object.fromEntries((['hybrid', 'vector', 'text', 'plainBm25'] as const).map((arm) => [arm, figures(arm)]));
    const byKind = Object.fromEntries((['exact', 'paraphrase', 'speaker', 'date'] as const).map((kind) => [kind, Object.fromEntries((['hybrid', 'vector', 'text', 'plainBm25'] as const).map((arm) => [arm, figures(arm, kind)]))]));
    console.log(`retrieval set: ${SET.memories.length} memories, ${SET.questions.length} questions`);
    for (const [arm, f] of Object.entries(arms)) console.log(`  ${arm.padEnd(10)} R@1 ${f.r1}  R@5 ${f.r5}  R@10 ${f.r10}  MRR ${f.mrr}`);
    for (const [kind, perArm] of Object.entries(byKind)) console.log(`  ${kind}: ${Object.entries(perArm).map(([arm, f]) => `${arm} R@10 ${f.r10} MRR ${f.mrr}`).join('; ')}`);
    if (process.env.RECALL_WRITE_RESULTS === '1') recordFigures(arms, byKind);
    const hybrid = arms.hybrid as Figures;
    for (const metric of ['r1', 'r5', 'r10', 'mrr'] as const) {
      expect(hybrid[metric]).toBeGreaterThanOrEqual(Math.max((arms.vector as Figures)[metric], (arms.text as Figures)[metric]));
    }
  });

  it('gives every hybrid result both of its exact scores, whichever side found it', async () => {
    let checked = 0;
    for (const q of SET.questions.slice(0, 60)) {
      const hits = await searchMemories({ query: q.query, mode: 'hybrid', filters: {}, limit: 10, minScore: 0 }, { store, embedder: async () => embedder });
      const side = await searchTextSide(q.query, { limit: CANDIDATE_POOL }, store);
      const best = side.hits[0]?.score ?? 0;
      const [vector] = await embedder.embed([q.query]);
      const ids = hits.map((h) => h.record.id);
      const bm25 = new Map((await store.textScores(side.query, ids)).map((t) => [t.id, t.score]));
      const cosine = new Map((await store.vectorScores(vector as Float32Array, ids)).map((m) => [m.id, m.similarity]));
      for (const hit of hits) {
        expect(hit.textScore).toBeCloseTo(best > 0 ? (bm25.get(hit.record.id) ?? 0) / best : 0, 5);
        expect(hit.vectorScore).toBeCloseTo(Math.max(0, cosine.get(hit.record.id) ?? 0), 5);
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThan(500);
  });

  it('ranks the same first ten whether 10 or 50 results are asked for', () => {
    const at10 = ranked.get('hybrid') ?? [];
    const differ = SET.questions.filter((_, i) => JSON.stringify(at10[i]) !== JSON.stringify(hybridAt50[i])).map((q) => q.query);
    expect(differ).toEqual([]);
  });
});

function recordFigures(arms: Record<string, Figures>, byKind: Record<string, Record<string, Figures>>): void {
  let all: Record<string, unknown> = {};
  try {
    all = JSON.parse(readFileSync(RESULTS_FILE, 'utf8')) as Record<string, unknown>;
  } catch {
    // First run.
  }
  const pkg = JSON.parse(readFileSync(new URL('../../node_modules/@lancedb/lancedb/package.json', import.meta.url), 'utf8')) as { version: string };
  all.retrievalSet = {
    set: 'test/support/retrieval-set.ts (generated, seeded)',
    memories: SET.memories.length,
    questions: SET.questions.length,
    embedder: embedder.id,
    metric: 'R@k: share of questions whose memory is in the top k; MRR over the top 10',
    lancedb: pkg.version,
    arms,
    byKind,
    measuredAt: new Date().toISOString(),
  };
  writeFileSync(RESULTS_FILE, `${JSON.stringify(all, null, 2)}\n`);
}
