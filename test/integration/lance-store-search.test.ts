/** The LanceDB store's search and management surface: text search, filters, get/delete, scan, restore, re-embed staging. */
import { describe, expect, it } from 'vitest';
import { contentsOf, manualClock, useLanceStores } from '../support/lance-stores.js';
import { openLanceStore } from '../../src/adapters/lance-store.js';
import { WRITE_PATH_FTS_MAX_ROWS } from '../../src/adapters/lance-tables.js';
import { configSchema } from '../../src/config/schema.js';
import { isRecallError } from '../../src/core/errors.js';
import { contentKey } from '../../src/core/memory.js';
import type { NewMemory, StoredMemory } from '../../src/core/ports.js';

const EMBEDDER = 'test:axes';
const NS = 'project:app-0000aaaa';
const OTHER = 'project:app-1111bbbb';

const stores = useLanceStores('recall-lance-search-');
const openStore = stores.openStore;

function axis(i: number, dim = 8): Float32Array {
  const v = new Float32Array(dim);
  v[i % dim] = 1;
  return v;
}

function memory(content: string, vector: Float32Array, over: Partial<NewMemory> = {}): NewMemory {
  return { content, vector, type: 'preference', importance: 0.7, namespace: NS, projectRoot: '/work/app', sessionId: 's1', source: 'claude', ...over };
}

function stored(id: string, content: string, vector: Float32Array, over: Partial<StoredMemory> = {}): StoredMemory {
  return {
    id, content, vector, type: 'decision', importance: 0.8, namespace: NS, projectRoot: '/work/app', sessionId: 'old-session',
    source: 'import', embedder: EMBEDDER, createdAt: '2023-01-02T03:04:05.678Z', lastSeenAt: '2023-02-03T04:05:06.789Z', seenCount: 7, ...over,
  };
}

async function codeOf(promise: Promise<unknown>): Promise<unknown> {
  const err = await promise.then(() => null, (e: unknown) => e);
  return isRecallError(err) ? err.code : err;
}

describe('LanceDB text search', () => {
  it('finds an exact term by BM25, best match first, and nothing for a query without words', async () => {
    const store = await openStore();
    await store.insert([memory('Use pnpm, never npm.', axis(0)), memory('Retry on E_CONNRESET twice.', axis(1)), memory('pnpm pnpm workspaces for pnpm', axis(2))], EMBEDDER);
    const hits = await store.textSearch('pnpm', {});
    expect(hits.map((h) => h.record.content)).toEqual(['pnpm pnpm workspaces for pnpm', 'Use pnpm, never npm.']);
    expect(hits[0]!.score).toBeGreaterThan(hits[1]!.score);
    expect((await store.textSearch('E_CONNRESET', {})).map((h) => h.record.content)).toEqual(['Retry on E_CONNRESET twice.']);
    expect(await store.textSearch('?!', {})).toEqual([]);
  });

  it('finds a memory added after the index was built, before any optimize', async () => {
    const store = await openStore();
    await store.insert([memory('first rule about tabs', axis(0))], EMBEDDER);
    expect(await store.textSearch('bigint', {})).toEqual([]);
    await store.insert([memory('Store money in a BIGINT column', axis(1))], EMBEDDER);
    const other = await openStore();
    expect((await other.textSearch('bigint', {})).map((h) => h.record.content)).toEqual(['Store money in a BIGINT column']);
  });

  it('leaves new rows outside the text index on a write (still found) and upkeep folds them in once 500 have piled up', async () => {
    const store = await openStore();
    const lancedb = await import('@lancedb/lancedb');
    const stats = async () => (await (await lancedb.connect(stores.dir())).openTable('memories')).indexStats('content_idx');
    const policy = { ...configSchema.parse({}).store, optimizeEveryVersions: 1_000 };
    await store.insert([memory('seed row', axis(0))], EMBEDDER);
    await store.insert(Array.from({ length: 10 }, (_, i) => memory(`small batch ${i}`, axis(i))), EMBEDDER);
    expect(await stats()).toMatchObject({ numIndexedRows: 1, numUnindexedRows: 10 });
    expect(await store.maintenanceDue(policy)).toBe(false);
    await store.insert(Array.from({ length: 500 }, (_, i) => memory(`bulk row ${i}`, axis(i))), EMBEDDER);
    // A fold rewrites the whole index: a write never does it, whatever the store's size.
    expect(await stats()).toMatchObject({ numIndexedRows: 1, numUnindexedRows: 510 });
    expect((await store.textSearch('bulk row 499', { limit: 1 })).map((h) => h.record.content)).toEqual(['bulk row 499']);
    expect(await store.maintenanceDue(policy)).toBe(true);
    expect(await store.maintain(policy)).toMatchObject({ optimized: true });
    expect(await stats()).toMatchObject({ numUnindexedRows: 0, numIndexedRows: 511 });
    expect((await store.textSearch('seed', {})).map((h) => h.record.content)).toEqual(['seed row']);
  });

  it('builds a missing text index on a write only into a small table; a bigger one is left to upkeep', async () => {
    const lancedb = await import('@lancedb/lancedb');
    const seed = await openStore();
    await seed.insert([memory('first row', axis(0))], EMBEDDER);
    const table = await (await lancedb.connect(stores.dir())).openTable('memories');
    expect((await table.listIndices()).map((index) => index.indexType)).toContain('FTS');
    await seed.insert(Array.from({ length: WRITE_PATH_FTS_MAX_ROWS }, (_, i) => memory(`copied row ${i}`, axis(i))), EMBEDDER);
    await seed.close();
    await table.dropIndex('content_idx');
    const store = await openStore();
    await store.insert([memory('one more row', axis(1))], EMBEDDER);
    expect((await table.listIndices()).map((index) => index.indexType)).not.toContain('FTS');
    expect(await store.maintenanceDue(configSchema.parse({}).store)).toBe(true);
  });

  it('loads the text index whole only when it changed: once built, again once new rows are folded in', async () => {
    const store = await openStore();
    expect(await store.warmTextIndex()).toBe(false); // no table yet
    await store.insert([memory('seed row about tabs', axis(0))], EMBEDDER);
    const cachedBefore = store.cacheBytes();
    expect(await store.warmTextIndex()).toBe(true);
    expect(store.cacheBytes()).toBeGreaterThan(cachedBefore); // the index is in LanceDB's cache now
    expect(await store.warmTextIndex()).toBe(false);
    await store.insert(Array.from({ length: 10 }, (_, i) => memory(`small batch ${i}`, axis(i))), EMBEDDER);
    expect(await store.warmTextIndex()).toBe(false); // a new version, but the index is the same
    await store.insert(Array.from({ length: 500 }, (_, i) => memory(`bulk row ${i}`, axis(i))), EMBEDDER);
    expect(await store.warmTextIndex()).toBe(false); // a write leaves them outside the index
    await store.maintain(configSchema.parse({}).store);
    expect(await store.warmTextIndex()).toBe(true); // folded in by upkeep
    expect((await store.textSearch('tabs', {})).map((h) => h.record.content)).toEqual(['seed row about tabs']);
    expect((await store.textSearch('batch', {}))).toHaveLength(10);
  });

  it('keeps LanceDB\'s caches bounded while the text index keeps changing and is loaded again', async () => {
    const writer = await openStore();
    await writer.insert([memory('seed row about tabs', axis(0))], EMBEDDER);
    const bounded = await openLanceStore(stores.dir(), { cacheBytes: { index: 256 * 1024, metadata: 256 * 1024 } });
    const unbounded = await openLanceStore(stores.dir());
    try {
      for (let round = 0; round < 10; round += 1) {
        await writer.insert(Array.from({ length: 500 }, (_, i) => memory(`bulk ${round} row ${i} word${i % 37} term${(i * 7) % 101}`, axis(i))), EMBEDDER);
        await writer.maintain(configSchema.parse({}).store);
        for (const reader of [bounded, unbounded]) {
          expect(await reader.warmTextIndex()).toBe(true);
          expect(await reader.textSearch('word3 term7', {})).not.toEqual([]);
        }
      }
      // Without a bound, every loaded index stays cached (about 0.8 MB a round here).
      expect(bounded.cacheBytes()).toBeLessThan(unbounded.cacheBytes() / 2);
    } finally {
      await bounded.close();
      await unbounded.close();
    }
  });

  it('builds the full-text index on first use for a table made without one', async () => {
    const store = await openStore();
    await store.insert([memory('Never force-push to main', axis(0))], EMBEDDER);
    const lancedb = await import('@lancedb/lancedb');
    const raw = await (await lancedb.connect(stores.dir())).openTable('memories');
    await raw.dropIndex('content_idx');
    expect(await raw.listIndices()).toEqual([]);
    raw.close();
    const fresh = await openStore();
    expect((await fresh.textSearch('force', {})).map((h) => h.record.content)).toEqual(['Never force-push to main']);
  });

  it('applies namespace, namespaces, type and since filters to text and vector search alike', async () => {
    const clock = manualClock();
    const store = await openStore(clock);
    await store.insert([memory('deploy blue green', axis(0)), memory('deploy canary', axis(0), { namespace: OTHER, type: 'decision' })], EMBEDDER);
    clock.advance(86_400_000);
    await store.insert([memory('deploy on fridays never', axis(0), { namespace: 'global' })], EMBEDDER);
    const text = async (f: object) => (await store.textSearch('deploy', f)).map((h) => h.record.content).sort();
    const vector = async (f: object) => (await contentsOf(store, await store.search(axis(0), f))).sort();
    for (const search of [text, vector]) {
      expect(await search({ namespace: OTHER })).toEqual(['deploy canary']);
      expect(await search({ namespaces: [NS, OTHER] })).toEqual(['deploy blue green', 'deploy canary']);
      expect(await search({ namespaces: [] })).toEqual([]);
      expect(await search({ type: 'decision' })).toEqual(['deploy canary']);
      expect(await search({ since: new Date('2024-05-02T00:00:00.000Z') })).toEqual(['deploy on fridays never']);
    }
    expect((await store.list({ since: new Date('2024-05-02T00:00:00.000Z') })).map((r) => r.content)).toEqual(['deploy on fridays never']);
  });

  it('matches every project of a name, and only of that name, however odd the name', async () => {
    const store = await openStore();
    const names = ['api', 'api', 'api-v2', 'my_app', 'myXapp', '50%', '500', "o'hara", 'back\\slash', 'backXslash'];
    await store.insert(
      names.map((name, i) => memory(`deploy ${i}`, axis(0), { namespace: `project:${name}-${(0xa0000000 + i).toString(16)}` })),
      EMBEDDER,
    );
    const contents = async (projectName: string) => {
      const found = [
        (await store.list({ projectName })).map((r) => r.content).sort(),
        (await store.textSearch('deploy', { projectName })).map((h) => h.record.content).sort(),
        (await contentsOf(store, await store.search(axis(0), { projectName }))).sort(),
      ];
      expect(found[1]).toEqual(found[0]);
      expect(found[2]).toEqual(found[0]);
      expect(await store.count({ projectName })).toBe(found[0]?.length);
      return found[0];
    };
    expect(await contents('api')).toEqual(['deploy 0', 'deploy 1']);
    expect(await contents('api-v2')).toEqual(['deploy 2']);
    expect(await contents('my_app')).toEqual(['deploy 3']);
    expect(await contents('50%')).toEqual(['deploy 5']);
    expect(await contents("o'hara")).toEqual(['deploy 7']);
    expect(await contents('back\\slash')).toEqual(['deploy 8']);
    expect(await contents('ap')).toEqual([]);
    expect(await contents('%')).toEqual([]);
  });
});

describe('LanceDB memory management', () => {
  it('gets memories by id and deletes some in one call, leaving the rest', async () => {
    const store = await openStore();
    const [a, b, c] = await store.insert([memory('a', axis(0)), memory('b', axis(1)), memory('c', axis(2))], EMBEDDER);
    expect((await store.get(a!.id))?.content).toBe('a');
    expect(await store.get('01NOSUCHID0000000000000000')).toBeNull();
    expect((await store.getMany([b!.id, 'nope', c!.id])).map((r) => r.content).sort()).toEqual(['b', 'c']);
    expect(await store.delete([a!.id, c!.id])).toBe(2);
    expect((await store.list({})).map((r) => r.content)).toEqual(['b']);
    expect(await store.textSearch('a', {})).toEqual([]);
  });

  it('deletes a whole namespace and nothing else', async () => {
    const store = await openStore();
    await store.insert([memory('a', axis(0)), memory('b', axis(1)), memory("o'brien", axis(2), { namespace: "project:o'brien-12345678" })], EMBEDDER);
    expect(await store.deleteNamespace(NS)).toBe(2);
    expect(await store.deleteNamespace("project:o'brien-12345678")).toBe(1);
    expect(await store.count()).toBe(0);
  });

  it('counts memories per namespace and type', async () => {
    const store = await openStore();
    await store.insert([memory('a', axis(0)), memory('b', axis(1)), memory('c', axis(2), { type: 'decision' }), memory('d', axis(3), { namespace: 'global' })], EMBEDDER);
    expect(await store.countByNamespaceAndType()).toEqual([
      { namespace: 'global', type: 'preference', count: 1 },
      { namespace: NS, type: 'decision', count: 1 },
      { namespace: NS, type: 'preference', count: 2 },
    ]);
  });

  it('counts per namespace and type across many batches, with names in any script', async () => {
    const store = await openStore();
    const namespaces = ['global', NS, 'project:café-日本-0000bbbb', 'project:ü-0000cccc'];
    const types = ['preference', 'decision', 'golden_rule'] as const;
    // More rows than one read batch holds, in an order that does not group them.
    const rows = Array.from({ length: 2_500 }, (_, i) => memory(`memory ${i}`, axis(i % 8), { namespace: namespaces[(i * 7) % 4], type: types[(i * 5) % 3] }));
    await store.insert(rows, EMBEDDER);
    const expected = new Map<string, number>();
    for (const row of rows) expected.set(`${row.namespace} ${row.type}`, (expected.get(`${row.namespace} ${row.type}`) ?? 0) + 1);
    const counted = await store.countByNamespaceAndType();
    expect(new Map(counted.map((g) => [`${g.namespace} ${g.type}`, g.count]))).toEqual(expected);
    expect(counted.map((g) => g.namespace)).toEqual([...counted.map((g) => g.namespace)].sort((a, b) => a.localeCompare(b)));
  });

  it('restores memories with their ids, timestamps, seen counts and exact vectors, and scans them back in batches', async () => {
    const store = await openStore();
    const vector = Float32Array.from([0.1, -0.2, 0.3, 0.4, 0.5, -0.6, 0.7, 0.123456789]);
    const originals = [stored('01AAA', 'kept as is', vector), stored('01BBB', 'second', axis(3), { namespace: 'global', projectRoot: null, sessionId: null })];
    await store.restore(originals, EMBEDDER);
    const batches: StoredMemory[][] = [];
    for await (const batch of store.scan({ batchSize: 1 })) batches.push(batch);
    expect(batches.map((b) => b.length)).toEqual([1, 1]);
    // A memory restored without version fields reads back as current, with nothing set.
    expect(batches.flat()).toEqual(originals.map((m) => ({ ...m, supersededBy: null, supersededAt: null, provenance: null, status: null })));
    const onlyGlobal: StoredMemory[] = [];
    for await (const batch of store.scan({ batchSize: 10, namespace: 'global' })) onlyGlobal.push(...batch);
    expect(onlyGlobal.map((m) => m.id)).toEqual(['01BBB']);
    expect((await store.textSearch('kept', {}))[0]?.record.id).toBe('01AAA');
  });
});

describe('LanceDB re-embedding', () => {
  it('swaps staged vectors in at once: new embedder, new dimension, text search still works', async () => {
    const store = await openStore();
    const [a, b] = await store.insert([memory('use pnpm', axis(0)), memory('bigint cents', axis(1))], EMBEDDER);
    await store.reinforce(a!.id, new Date('2024-06-01T00:00:00.000Z'));
    const staged = (id: string, content: string, i: number) => ({ id, contentKey: contentKey(content), vector: axis(i, 4) });
    await store.stageVectors('test:new', [staged(a!.id, 'use pnpm', 0)]);
    expect(await codeOf(store.swapInStagedVectors('test:new'))).toBe('STORE_FAILED');
    expect(await store.embedderInfo()).toEqual({ embedder: EMBEDDER, dimension: 8 });

    // A new process resumes from what is staged.
    const again = await openStore();
    expect([...(await again.stagedVectors('test:new')).keys()]).toEqual([a!.id]);
    await again.stageVectors('test:new', [staged(b!.id, 'bigint cents', 1)]);
    expect(await again.warmTextIndex()).toBe(true);
    expect(await again.swapInStagedVectors('test:new')).toBe(2);
    expect(await again.warmTextIndex()).toBe(true); // the table and its index were written anew

    expect(await store.embedderInfo()).toEqual({ embedder: 'test:new', dimension: 4 });
    const rows = await store.list({});
    expect(rows.map((r) => r.embedder)).toEqual(['test:new', 'test:new']);
    expect(rows.find((r) => r.id === a!.id)).toMatchObject({ seenCount: 2, lastSeenAt: '2024-06-01T00:00:00.000Z' });
    expect((await store.search(axis(1, 4), { limit: 1 }))[0]?.id).toBe(b!.id);
    expect((await store.textSearch('pnpm', {}))[0]?.record.id).toBe(a!.id);
    expect(await store.stagedVectors('test:new')).toEqual(new Map());
    expect(await codeOf(store.insert([memory('old vectors', axis(0))], EMBEDDER))).toBe('EMBEDDER_MISMATCH');
  });

  it('resets a store whose memories were all forgotten, so the next write records the new embedder', async () => {
    const store = await openStore();
    const [a] = await store.insert([memory('gone soon', axis(0))], EMBEDDER);
    await store.delete([a!.id]);
    expect(await store.swapInStagedVectors('test:new')).toBe(0);
    expect(await store.embedderInfo()).toBeNull();
    await store.insert([memory('fresh', axis(1, 4))], 'test:new');
    expect(await store.embedderInfo()).toEqual({ embedder: 'test:new', dimension: 4 });
  });

  it('drops staging left by another embedder, and refuses a staged vector whose text has changed', async () => {
    const store = await openStore();
    const [a] = await store.insert([memory('use pnpm', axis(0))], EMBEDDER);
    await store.stageVectors('test:abandoned', [{ id: a!.id, contentKey: 'use pnpm', vector: axis(0, 4) }]);
    expect(await store.stagedVectors('test:other')).toEqual(new Map());
    expect(await store.stagedVectors('test:abandoned')).toEqual(new Map());
    await store.stageVectors('test:other', [{ id: a!.id, contentKey: 'some older text', vector: axis(0, 4) }]);
    expect(await codeOf(store.swapInStagedVectors('test:other'))).toBe('STORE_FAILED');
  });
});
