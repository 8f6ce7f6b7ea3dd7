/** The store's list by place: the rows older or newer than a (created_at, id), ties broken by id, filters kept. */
import { describe, expect, it } from 'vitest';
import type { StoredMemory } from '../../src/core/ports.js';
import { useLanceStores } from '../support/lance-stores.js';

const EMBEDDER = 'test:axes';
const stores = useLanceStores('recall-lance-pages-');

/** Memory `i`: a minute after the one before, except that each odd one shares its time with the even one before. */
function stored(i: number, namespace = 'global'): StoredMemory {
  const vector = new Float32Array(8);
  vector[i % 8] = 1;
  return {
    id: `m${String(i).padStart(3, '0')}`, content: `memory ${i}`, vector, type: 'decision', importance: 0.5, namespace,
    projectRoot: null, sessionId: null, source: 'import', embedder: EMBEDDER,
    createdAt: new Date(Date.UTC(2026, 0, 1) + (i - (i % 2)) * 60_000).toISOString(), lastSeenAt: '2026-02-01T00:00:00.000Z', seenCount: 1,
  };
}

const place = (m: StoredMemory) => ({ createdAt: m.createdAt, id: m.id });

describe('MemoryStore.list by place', () => {
  it('reads the rows right after a place, newest first, a tie on the time broken by id', async () => {
    const store = await stores.openStore();
    const all = Array.from({ length: 40 }, (_, i) => stored(i));
    await store.restore(all, EMBEDDER);
    const ids = (rows: ReadonlyArray<{ id: string }>) => rows.map((r) => r.id);
    const newestFirst = ids([...all].reverse());
    // m021 shares its time with m020: the page after m021 starts at m020.
    expect(ids(await store.list({ olderThan: place(all[21]!), limit: 5 }))).toEqual(newestFirst.slice(19, 24));
    expect(ids(await store.list({ olderThan: place(all[20]!), limit: 5 }))).toEqual(newestFirst.slice(20, 25));
    // Newer than a place: the nearest rows to it, still newest first.
    expect(ids(await store.list({ newerThan: place(all[20]!), limit: 5 }))).toEqual(newestFirst.slice(14, 19));
    expect(ids(await store.list({ newerThan: place(all[37]!), limit: 5 }))).toEqual(newestFirst.slice(0, 2));
    expect(await store.list({ olderThan: place(all[0]!) })).toEqual([]);
  });

  it('keeps the other filters', async () => {
    const store = await stores.openStore();
    await store.restore(Array.from({ length: 20 }, (_, i) => stored(i, i % 2 === 0 ? 'global' : 'project:a-0000aaaa')), EMBEDDER);
    const rows = await store.list({ namespace: 'global', olderThan: place(stored(10)), limit: 3 });
    expect(rows.map((r) => r.id)).toEqual(['m008', 'm006', 'm004']);
  });

  it('reads a small page (found on its sort keys, then read by id) as the same rows, whole, as a long one', async () => {
    const store = await stores.openStore();
    await store.restore(Array.from({ length: 150 }, (_, i) => ({ ...stored(i, i % 3 === 0 ? 'global' : 'project:a-0000aaaa'), type: i % 2 === 0 ? 'decision' : 'pattern' })), EMBEDDER);
    for (const filters of [{}, { namespace: 'global' }, { type: 'pattern' as const }]) {
      const long = await store.list({ ...filters, limit: 1000 });
      for (const limit of [2, 7, 50, 100]) expect(await store.list({ ...filters, limit })).toEqual(long.slice(0, limit));
      expect(await store.list({ ...filters, olderThan: place(stored(90)), limit: 10 })).toEqual(long.filter((r) => r.createdAt < stored(90).createdAt || (r.createdAt === stored(90).createdAt && r.id < 'm090')).slice(0, 10));
    }
  });
});
