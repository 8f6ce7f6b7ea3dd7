/**
 * Scale: past the (lowered) row threshold the store gets an IVF-RQ index, and dedupe makes the same
 * decisions with it as with an exact brute-force search.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as lancedb from '@lancedb/lancedb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openLanceStore } from '../../src/adapters/lance-store.js';
import type { LanceStore } from '../../src/adapters/lance-store.js';
import type { Neighbor, NewMemory } from '../../src/core/ports.js';
import { cosineSimilarity } from '../../src/core/cosine-similarity.js';
import { planDedupe } from '../../src/store/dedupe.js';
import type { DedupeCandidate, DedupeDecision } from '../../src/store/dedupe.js';
import { seededRandom, unitVector } from '../support/seeded-vectors.js';

const EMBEDDER = 'test:clusters';
const DIM = 64;
const ROWS = 12_000;
const NAMESPACES = ['project:a-00000001', 'project:b-00000002', 'project:c-00000003'];
const THRESHOLD = 0.85;
const POLICY = { vectorIndexMinRows: 10_000, optimizeEveryVersions: 5, pruneGraceMs: 0 };

const rnd = seededRandom(42);

function noisy(base: Float32Array, amount: number): Float32Array {
  return unitVector(base.map((x) => x + rnd() * amount));
}

/** Rows sit in 300 clusters, like memories that share a topic. */
const centers = Array.from({ length: 300 }, () => unitVector(Float32Array.from({ length: DIM }, rnd)));
const vectors = Array.from({ length: ROWS }, (_, i) => noisy(centers[i % centers.length] as Float32Array, 0.6));

function memory(i: number, vector: Float32Array): NewMemory {
  return {
    content: `memory ${i} about topic ${i % centers.length}`, type: 'pattern', importance: 0.5,
    namespace: NAMESPACES[i % NAMESPACES.length] as string, projectRoot: null, sessionId: null, source: 'test', vector,
  };
}

/** Probes: near-duplicates of stored rows at many distances (some either side of the threshold), and unrelated vectors. */
const nearProbes = Array.from({ length: 60 }, (_, k) => {
  const i = (k * 197) % ROWS;
  return { namespace: NAMESPACES[i % NAMESPACES.length] as string, vector: noisy(vectors[i] as Float32Array, 0.05 + (k % 6) * 0.04) };
});
const farProbes = Array.from({ length: 20 }, (_, k) => ({
  namespace: NAMESPACES[k % NAMESPACES.length] as string,
  vector: unitVector(Float32Array.from({ length: DIM }, rnd)),
}));
const probes = [...nearProbes, ...farProbes];

/** The exact answer: every row of the namespace, best cosine first. */
function bruteForceTop(namespace: string, vector: Float32Array): { index: number; similarity: number } {
  let best = { index: -1, similarity: -2 };
  vectors.forEach((v, i) => {
    if (NAMESPACES[i % NAMESPACES.length] !== namespace) return;
    const similarity = cosineSimilarity(vector, v);
    if (similarity > best.similarity) best = { index: i, similarity };
  });
  return best;
}

function decide(probe: { namespace: string; vector: Float32Array }, nearest: readonly Neighbor[]): DedupeDecision {
  const candidate: DedupeCandidate = { content: 'probe', vector: probe.vector, namespace: probe.namespace, sessionId: null };
  return planDedupe([candidate], [{ exact: null, nearest }], THRESHOLD)[0] as DedupeDecision;
}

let dir: string;
let store: LanceStore;
let idByRow: string[];
let before: Neighbor[][];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'recall-scale-'));
  store = await openLanceStore(dir);
  idByRow = [];
  for (let start = 0; start < ROWS; start += 2_000) {
    const batch = vectors.slice(start, start + 2_000).map((v, k) => memory(start + k, v));
    idByRow.push(...(await store.insert(batch, EMBEDDER)).map((r) => r.id));
  }
  // Before any vector index: LanceDB searches flat, which is exact.
  before = await Promise.all(probes.map((p) => store.nearest(p.namespace, p.vector, 3)));
}, 60_000);

afterAll(async () => {
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('a store past the vector index threshold', () => {
  it('gives Lance at least 4 CPU-pool threads, so full-text index builds cannot deadlock on 2 cores', () => {
    expect(Number(process.env.LANCE_CPU_THREADS)).toBeGreaterThanOrEqual(4);
  });

  it('builds no vector index below the threshold', async () => {
    const report = await store.maintain({ ...POLICY, vectorIndexMinRows: ROWS + 1, optimizeEveryVersions: 1_000 });
    expect(report.vectorIndex).toBe('none');
    expect(report.textIndex).toBe(true);
    // 12,000 rows: past the id index's own 10,000.
    expect(report.idIndex).toBe(true);
    // Writes leave new rows outside the text index; upkeep folds them in (and compacts) whatever the version count.
    expect(report.optimized).toBe(true);
  });

  it('builds an IVF-RQ cosine index once past the threshold, and compacts piled-up versions', async () => {
    // Versions pile up again: each sighting is a commit.
    for (let k = 0; k < POLICY.optimizeEveryVersions; k += 1) await store.reinforce(idByRow[k] as string, new Date());
    const report = await store.maintain(POLICY);
    expect(report.rows).toBe(ROWS);
    expect(report.vectorIndex).toBe('built');
    expect(report.versions).toBeGreaterThanOrEqual(POLICY.optimizeEveryVersions);
    expect(report.optimized).toBe(true);

    const db = await lancedb.connect(dir);
    const table = await db.openTable('memories');
    const stats = await table.indexStats('vector_idx');
    expect(stats).toMatchObject({ indexType: 'IVF_RQ', distanceType: 'cosine', numIndexedRows: ROWS, numUnindexedRows: 0 });
    // Pruned: only versions younger than the grace period (none) and the latest are left.
    expect((await table.listVersions()).length).toBeLessThan(report.versions);
    // Searches now go through the index.
    const plan = await table.vectorSearch(probes[0]?.vector as Float32Array).distanceType('cosine').explainPlan();
    expect(plan).toMatch(/ANN/i);
    table.close();
    db.close();

    expect((await store.maintain(POLICY)).vectorIndex).toBe('present');
  });

  it('reads rows by id through a BTREE index on id, and builds it again when it is missing', async () => {
    const db = await lancedb.connect(dir, { readConsistencyInterval: 0 });
    const table = await db.openTable('memories');
    expect(await table.indexStats('id_idx')).toMatchObject({ indexType: 'BTREE', numIndexedRows: ROWS, numUnindexedRows: 0 });
    const ids = [idByRow[0], idByRow[ROWS - 1]] as string[];
    expect(await table.query().where(`id IN ('${ids.join("', '")}')`).explainPlan()).toMatch(/ScalarIndexQuery.*id_idx/s);
    expect((await store.getMany(ids)).map((r) => r.id).sort()).toEqual([...ids].sort());

    await table.dropIndex('id_idx');
    expect(await store.maintenanceDue(POLICY)).toBe(true);
    const report = await store.maintain(POLICY);
    expect(report).toMatchObject({ vectorIndex: 'present', idIndex: true });
    expect((await table.listIndices()).map((i) => i.name)).toContain('id_idx');
    expect(await store.maintenanceDue(POLICY)).toBe(false);
    table.close();
    db.close();
  });

  it('finds the same nearest memory with the same exact similarity as brute force, for every near-duplicate probe', async () => {
    const after = await Promise.all(nearProbes.map((p) => store.nearest(p.namespace, p.vector, 3)));
    nearProbes.forEach((probe, k) => {
      const exact = bruteForceTop(probe.namespace, probe.vector);
      expect(after[k]?.[0]?.record.id, `probe ${k}`).toBe(idByRow[exact.index]);
      expect(after[k]?.[0]?.similarity, `probe ${k}`).toBe(before[k]?.[0]?.similarity);
      expect(after[k]?.[0]?.similarity, `probe ${k}`).toBeCloseTo(exact.similarity, 6);
    });
  });

  it('makes the same dedupe decision for every probe with the index as without it', async () => {
    // Unrelated probes may get a different (approximate) top hit, but none is anywhere near the threshold.
    for (const probe of farProbes) expect(bruteForceTop(probe.namespace, probe.vector).similarity).toBeLessThan(THRESHOLD - 0.2);
    const after = await Promise.all(probes.map((p) => store.nearest(p.namespace, p.vector, 3)));
    const withIndex = probes.map((p, k) => decide(p, after[k] ?? []));
    const withoutIndex = probes.map((p, k) => decide(p, before[k] ?? []));
    expect(withIndex).toEqual(withoutIndex);
    // The test set exercises both outcomes.
    expect(withIndex.filter((d) => d.action === 'reinforce').length).toBeGreaterThan(10);
    expect(withIndex.filter((d) => d.action === 'insert').length).toBeGreaterThan(10);
  });

  it('still finds rows written after the index was built, before they are folded in', async () => {
    const fresh = noisy(centers[7] as Float32Array, 0.6);
    const [record] = await store.insert([memory(ROWS, fresh)], EMBEDDER);
    const [hit] = await store.nearest(NAMESPACES[ROWS % NAMESPACES.length] as string, noisy(fresh, 0.05), 1);
    expect(hit?.record.id).toBe(record?.id);
  });
});

describe('training the vector index', () => {
  it('neither blocks nor loses a write made by another process meanwhile', async () => {
    const other = mkdtempSync(join(tmpdir(), 'recall-scale-concurrent-'));
    const worker = await openLanceStore(other);
    const writer = await openLanceStore(other);
    try {
      await worker.insert(vectors.slice(0, 3_000).map((v, i) => memory(i, v)), EMBEDDER);
      let lockTaken = false;
      const maintained = worker.maintain({ ...POLICY, vectorIndexMinRows: 2_000 }, {
        withStoreLock: (fn) => { lockTaken = true; return fn(); },
      });
      // A capture in another process writes while the index trains: it needs no lock held by the upkeep.
      const fresh = noisy(centers[11] as Float32Array, 0.6);
      const [written] = await writer.insert([memory(3_000, fresh)], EMBEDDER);
      const report = await maintained;
      expect(report.vectorIndex).toBe('built');
      expect(lockTaken).toBe(true); // compaction still took the lock
      expect(await worker.count()).toBe(3_001);
      const [hit] = await worker.nearest(NAMESPACES[3_000 % NAMESPACES.length] as string, noisy(fresh, 0.05), 1);
      expect(hit?.record.id).toBe(written?.id);
    } finally {
      await worker.close();
      await writer.close();
      rmSync(other, { recursive: true, force: true });
    }
  }, 30_000);
});
