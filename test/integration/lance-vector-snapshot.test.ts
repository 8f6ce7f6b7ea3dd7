/**
 * A long-lived reader's copy of a table without a vector index (warmVectors): vector searches and reads
 * by id answered from it are the same as LanceDB's own, for every filter, and a write by another
 * process is seen at once.
 */
import { describe, expect, it } from 'vitest';
import { useLanceStores } from '../support/lance-stores.js';
import { seededRandom, unitVector } from '../support/seeded-vectors.js';
import type { ListOptions, StoredMemory } from '../../src/core/ports.js';
import type { MemoryType } from '../../src/core/memory.js';

const EMBEDDER = 'test:seeded';
let DIM = 16;
const NAMESPACES = ['project:app-0000aaaa', 'project:app-1111bbbb', 'project:api-2222cccc', 'global', 'project:app-33334444x'];
const TYPES: MemoryType[] = ['preference', 'decision', 'pattern'];

const stores = useLanceStores('recall-lance-snapshot-');

function randomVector(next: () => number): Float32Array {
  return unitVector(Float32Array.from({ length: DIM }, next));
}

/** Rows over five namespaces and three types, a day apart, some replaced by a newer one, some quarantined. */
function rows(count: number, seed: number): StoredMemory[] {
  const next = seededRandom(seed);
  return Array.from({ length: count }, (_, i) => {
    const id = `01J${String(seed).padStart(3, '0')}${String(i).padStart(20, '0')}`;
    return {
      id, content: `memory ${seed} ${i}`, vector: randomVector(next), type: TYPES[i % 3]!, importance: 0.5,
      namespace: NAMESPACES[i % NAMESPACES.length]!, projectRoot: null, sessionId: null, source: 'test', embedder: EMBEDDER,
      createdAt: new Date(Date.UTC(2024, 0, 1 + (i % 30))).toISOString(), lastSeenAt: '2024-02-01T00:00:00.000Z', seenCount: 1,
      supersededBy: i % 7 === 0 ? `01JNEWER${i}` : null, supersededAt: i % 7 === 0 ? '2024-02-01T00:00:00.000Z' : null,
      status: i % 11 === 0 ? 'quarantined' : null,
    };
  });
}

const FILTERS: ListOptions[] = [
  {},
  { limit: 5 },
  { namespace: 'project:app-0000aaaa' },
  { namespaces: ['global', 'project:api-2222cccc'] },
  { namespaces: [] },
  { projectName: 'app' },
  { type: 'decision' },
  { since: new Date(Date.UTC(2024, 0, 20)) },
  { allVersions: true },
  { supersededBy: '01JNEWER14' },
  { quarantine: 'exclude' },
  { quarantine: 'only', allVersions: true },
  { projectName: 'app', type: 'pattern', since: new Date(Date.UTC(2024, 0, 10)), quarantine: 'exclude', limit: 3 },
];

describe('the in-memory copy of a table without a vector index', () => {
  it('answers every filter with the rows and similarities LanceDB answers, and reads rows by id alike', async () => {
    const warm = await stores.openStore();
    await warm.restore(rows(400, 1), EMBEDDER);
    const cold = await stores.openStore();
    expect(await warm.warmVectors()).toBe(true);
    expect(await warm.warmVectors()).toBe(false); // the copy is current
    const next = seededRandom(99);
    for (let q = 0; q < 5; q += 1) {
      const query = randomVector(next);
      for (const filters of FILTERS) {
        const options = { limit: 40, ...filters };
        const fromCopy = await warm.search(query, options);
        expect(fromCopy, JSON.stringify(filters)).toEqual(await cold.search(query, options));
        if (filters.namespaces?.length !== 0) expect(fromCopy.length).toBeGreaterThan(0);
        const ids = fromCopy.slice(0, 10).map((m) => m.id);
        const byId = (list: Array<{ id: string }>) => [...list].sort((a, b) => a.id.localeCompare(b.id));
        expect(byId(await warm.getMany(ids))).toEqual(byId(await cold.getMany(ids)));
      }
    }
  });

  it('answers alike with vectors of a dimension SIMD does not take (6)', async () => {
    DIM = 6;
    try {
      const warm = await stores.openStore();
      await warm.restore(rows(200, 6), EMBEDDER);
      const cold = await stores.openStore();
      expect(await warm.warmVectors()).toBe(true);
      const next = seededRandom(7);
      for (let q = 0; q < 5; q += 1) {
        const query = randomVector(next);
        for (const filters of FILTERS) expect(await warm.search(query, { limit: 40, ...filters })).toEqual(await cold.search(query, { limit: 40, ...filters }));
      }
    } finally {
      DIM = 16;
    }
  });

  it('sees a write by another process at once, and copies the table again after it', async () => {
    const warm = await stores.openStore();
    await warm.restore(rows(50, 2), EMBEDDER);
    expect(await warm.warmVectors()).toBe(true);
    const writer = await stores.openStore();
    const added = rows(2, 3)[1]; // a current row (row 0 is replaced and quarantined)
    await writer.restore([added!], EMBEDDER);
    const hits = await warm.search(added!.vector, { limit: 1 });
    expect(hits.map((h) => h.id)).toEqual([added!.id]);
    expect((await warm.getMany([added!.id])).map((r) => r.content)).toEqual([added!.content]);
    expect(await warm.warmVectors()).toBe(true);
    expect((await warm.search(added!.vector, { limit: 1 })).map((h) => h.id)).toEqual([added!.id]);
    await writer.delete([added!.id]);
    expect((await warm.getMany([added!.id]))).toEqual([]);
    expect((await warm.search(added!.vector, { limit: 1 })).map((h) => h.id)).not.toEqual([added!.id]);
  });

  it('is not made for a table with a vector index', async () => {
    const store = await stores.openStore();
    await store.restore(rows(300, 4), EMBEDDER);
    expect((await store.maintain({ vectorIndexMinRows: 256, optimizeEveryVersions: 50, pruneGraceMs: 0 })).vectorIndex).toBe('built');
    expect(await store.warmVectors()).toBe(false);
    const cold = await stores.openStore();
    const query = randomVector(seededRandom(5));
    expect(await store.search(query, { limit: 10 })).toEqual(await cold.search(query, { limit: 10 }));
  });
});
