/**
 * Which vector index the upkeep builds: IVF-RQ where LanceDB allows it (dimensions divisible by 8),
 * IVF-PQ otherwise, and an IVF-PQ index left by an older release is rebuilt as IVF-RQ once. And the
 * id index, which comes with the vector index (or at 10,000 rows, if that is sooner).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as lancedb from '@lancedb/lancedb';
import { afterEach, describe, expect, it } from 'vitest';
import { openLanceStore, type LanceStore } from '../../src/adapters/lance-store.js';
import { vectorIndexType } from '../../src/adapters/lance-index.js';
import type { NewMemory } from '../../src/core/ports.js';
import { seededRandom, unitVector } from '../support/seeded-vectors.js';

const ROWS = 400;
const POLICY = { vectorIndexMinRows: 300, optimizeEveryVersions: 1_000, pruneGraceMs: 0 };

function unitVectors(count: number, dim: number): Float32Array[] {
  const rnd = seededRandom(dim);
  return Array.from({ length: count }, () => unitVector(Float32Array.from({ length: dim }, rnd)));
}

function memories(vectors: readonly Float32Array[]): NewMemory[] {
  return vectors.map((vector, i) => ({
    content: `memory ${i}`, type: 'pattern', importance: 0.5, namespace: `project:p${i % 3}-0000000${i % 3}`,
    projectRoot: null, sessionId: null, source: 'test', vector,
  }));
}

let dir: string | undefined;
let store: LanceStore | undefined;
afterEach(async () => {
  await store?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
  store = undefined;
  dir = undefined;
});

async function storeOf(dim: number): Promise<{ store: LanceStore; vectors: Float32Array[] }> {
  dir = mkdtempSync(join(tmpdir(), 'recall-index-kind-'));
  store = await openLanceStore(dir);
  const vectors = unitVectors(ROWS, dim);
  await store.insert(memories(vectors), `test:dim${dim}`);
  return { store, vectors };
}

async function vectorIndexOf(at: string): Promise<{ type: string | undefined; stats: unknown }> {
  const db = await lancedb.connect(at);
  const table = await db.openTable('memories');
  const index = (await table.listIndices()).find((i) => i.columns.includes('vector'));
  const stats = index === undefined ? undefined : await table.indexStats(index.name);
  table.close();
  db.close();
  return { type: index?.indexType, stats };
}

describe('the vector index kind', () => {
  it('is IVF-RQ for dimensions divisible by 8 and IVF-PQ for the others', () => {
    expect([384, 768, 1024, 64, 16].map(vectorIndexType)).toEqual(['IvfRq', 'IvfRq', 'IvfRq', 'IvfRq', 'IvfRq']);
    expect([12, 10, 3, 385].map(vectorIndexType)).toEqual(['IvfPq', 'IvfPq', 'IvfPq', 'IvfPq']);
  });

  it('builds IVF-RQ for 16-dim vectors, then leaves it in place', async () => {
    const { store: s } = await storeOf(16);
    expect((await s.maintain(POLICY)).vectorIndex).toBe('built');
    expect(await vectorIndexOf(dir as string)).toMatchObject({ type: 'IvfRq', stats: { indexType: 'IVF_RQ', distanceType: 'cosine', numIndexedRows: ROWS } });
    expect(await s.maintenanceDue(POLICY)).toBe(false);
    expect((await s.maintain(POLICY)).vectorIndex).toBe('present');
  });

  it('builds IVF-PQ for 12-dim vectors (LanceDB refuses RQ there), and does not rebuild it round after round', async () => {
    const { store: s } = await storeOf(12);
    expect((await s.maintain(POLICY)).vectorIndex).toBe('built');
    expect((await vectorIndexOf(dir as string)).type).toBe('IvfPq');
    expect(await s.maintenanceDue(POLICY)).toBe(false);
    expect((await s.maintain(POLICY)).vectorIndex).toBe('present');
  });

  it('rebuilds an IVF-PQ index left by an older release as IVF-RQ, and still finds every row as its own nearest', async () => {
    const { store: s, vectors } = await storeOf(16);
    const db = await lancedb.connect(dir as string);
    const table = await db.openTable('memories');
    await table.createIndex('vector', { config: lancedb.Index.ivfPq({ distanceType: 'cosine', numSubVectors: 2 }) });
    table.close();
    db.close();
    expect((await vectorIndexOf(dir as string)).type).toBe('IvfPq');

    expect(await s.maintenanceDue(POLICY)).toBe(true);
    expect((await s.maintain(POLICY)).vectorIndex).toBe('rebuilt');
    expect((await vectorIndexOf(dir as string)).type).toBe('IvfRq');
    expect(await s.maintenanceDue(POLICY)).toBe(false);

    const rows = memories(vectors);
    for (const i of [0, 57, 199, 398]) {
      const [hit] = await s.nearest(rows[i]?.namespace as string, vectors[i] as Float32Array, 1);
      expect(hit?.record.content).toBe(`memory ${i}`);
      expect(hit?.similarity).toBeCloseTo(1, 5);
    }
  });
});

describe('the id index', () => {
  it('is not built below the row count, and is built with the vector index past it', async () => {
    const { store: s } = await storeOf(16);
    const high = { ...POLICY, vectorIndexMinRows: ROWS + 1 };
    expect(await s.maintain(high)).toMatchObject({ vectorIndex: 'none', idIndex: false });
    expect(await s.maintenanceDue(high)).toBe(false);
    expect(await s.maintenanceDue(POLICY)).toBe(true);
    expect(await s.maintain(POLICY)).toMatchObject({ vectorIndex: 'built', idIndex: true });
    const db = await lancedb.connect(dir as string);
    const table = await db.openTable('memories');
    expect(await table.indexStats('id_idx')).toMatchObject({ indexType: 'BTREE', numIndexedRows: ROWS });
    table.close();
    db.close();
    expect(await s.maintenanceDue(POLICY)).toBe(false);
  });
});
