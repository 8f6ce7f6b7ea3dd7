/**
 * How many IVF partitions a vector search probes: an unfiltered search stops at its probe count (LanceDB
 * given no upper bound probes them all), while a filtered one goes on until the filter's rows are found,
 * so a dedupe lookup in a small namespace still sees every row of it. And how many candidates the index
 * proposes for the exact re-rank: more for a dedupe lookup than for a search a user reads.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as lancedb from '@lancedb/lancedb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openLanceStore, type LanceStore } from '../../src/adapters/lance-store.js';
import { DEDUPE_PROBES, SEARCH_PROBES, nearestQuery, queryNearest } from '../../src/adapters/lance-search.js';
import { CURRENT_ONLY } from '../../src/adapters/lance-rows.js';
import type { NewMemory } from '../../src/core/ports.js';
import { seededRandom, unitVector } from '../support/seeded-vectors.js';

const EMBEDDER = 'test:probes';
const DIM = 16;
const ROWS = 4_000;
const PARTITIONS = 100;
const BIG = 'project:big-00000001';
const SMALL = 'project:small-00000002';

const rnd = seededRandom(7);

/** The query looks along +x; the small namespace's three rows point the other way, far from every probed partition. */
const query = unitVector(Float32Array.from({ length: DIM }, (_, i) => (i === 0 ? 1 : 0.05 * rnd())));
function row(i: number): NewMemory {
  const small = i < 3;
  const vector = unitVector(Float32Array.from({ length: DIM }, (_, d) => (small && d === 0 ? -3 : rnd())));
  return { content: `memory ${i}`, type: 'pattern', importance: 0.5, namespace: small ? SMALL : BIG, projectRoot: null, sessionId: null, source: 'test', vector };
}

let dir: string;
let store: LanceStore;
let table: lancedb.Table;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'recall-probes-'));
  store = await openLanceStore(dir);
  await store.insert(Array.from({ length: ROWS }, (_, i) => row(i)), EMBEDDER);
  const db = await lancedb.connect(dir);
  table = await db.openTable('memories');
  await table.createIndex('vector', { config: lancedb.Index.ivfRq({ distanceType: 'cosine', numPartitions: PARTITIONS }) });
}, 120_000);

afterAll(async () => {
  table?.close();
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The candidates the index step hands to the exact re-rank. */
function candidatesProposed(plan: string): number {
  const found = /ANNSubIndex:.*?\bk=(\d+)/.exec(plan);
  if (found === null) throw new Error(`no ANN step in the plan:\n${plan}`);
  return Number(found[1]);
}

function partitionsSearched(plan: string): number {
  const found = /ANNSubIndex:.*?partitions_searched=(\d+)/.exec(plan);
  if (found === null) throw new Error(`no ANN step in the plan:\n${plan}`);
  return Number(found[1]);
}

describe('vector search partitions', () => {
  it.each([
    ['a dedupe lookup', DEDUPE_PROBES],
    ['a search', SEARCH_PROBES],
  ])('probes exactly its partition count when nothing is filtered (%s)', async (_, probes) => {
    expect(PARTITIONS).toBeGreaterThan(probes.nprobes);
    const plan = await nearestQuery(table, query, null, 10, probes).analyzePlan();
    expect(partitionsSearched(plan)).toBe(probes.nprobes);
  });

  it('probes on past its partition count when a filter leaves too few rows, and finds every row of a small namespace', async () => {
    const plan = await nearestQuery(table, query, `namespace = '${SMALL}'`, 10).analyzePlan();
    expect(partitionsSearched(plan)).toBeGreaterThan(DEDUPE_PROBES.nprobes);
    const nearest = await store.nearest(SMALL, query, 10);
    expect(nearest.map((n) => n.record.content).sort()).toEqual(['memory 0', 'memory 1', 'memory 2']);
  });

  it('has the index propose limit x refine factor candidates: more for a dedupe lookup than for a search', async () => {
    expect(SEARCH_PROBES.refineFactor).toBeLessThan(DEDUPE_PROBES.refineFactor);
    expect(candidatesProposed(await nearestQuery(table, query, null, 10).analyzePlan())).toBe(10 * DEDUPE_PROBES.refineFactor);
    expect(candidatesProposed(await nearestQuery(table, query, null, 10, SEARCH_PROBES).analyzePlan())).toBe(10 * SEARCH_PROBES.refineFactor);
  });

  it('a search through the store returns what a query with the search probes returns, most similar first', async () => {
    const found = await store.search(query, { limit: 10 });
    expect(found).toHaveLength(10);
    expect(found.every((n, i) => i === 0 || (found[i - 1]?.similarity ?? 1) >= n.similarity)).toBe(true);
    // The store reads current memories only, so the direct query filters the same way.
    const direct = await queryNearest(table, query, CURRENT_ONLY, 10, SEARCH_PROBES);
    expect(found.map((n) => n.id)).toEqual(direct.map((n) => n.record.id));
  });

  it('keeps both probe settings constant', () => {
    expect(Object.isFrozen(DEDUPE_PROBES) && Object.isFrozen(SEARCH_PROBES)).toBe(true);
  });
});
