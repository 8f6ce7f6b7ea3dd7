/** Editing a memory in place against a real LanceDB store: text, type, vector and text index follow; the rest stays. */
import { describe, expect, it } from 'vitest';
import type { MemoryOrigin } from '../../src/core/memory.js';
import { createHashEmbedder } from '../../src/embed/hash-embedder.js';
import { storeMemories } from '../../src/store/store-memories.js';
import { manualClock, useLanceStores } from '../support/lance-stores.js';

const stores = useLanceStores('recall-edit-');
const embedder = createHashEmbedder();
const origin: MemoryOrigin = { namespace: 'global', projectRoot: null, sessionId: 's1', source: 'manual' };

describe('editing a memory in the store', () => {
  it('rewrites text, type and vector in place and keeps id, origin, timestamps and seen count', async () => {
    const store = await stores.openStore();
    const stored = await storeMemories([{ content: 'Use tabs for indentation.', type: 'preference', importance: 0.7 }], origin, { embedder, store, threshold: 0.85, clock: manualClock() });
    const before = stored.inserted[0]!;
    const [vector] = await embedder.embed(['Indent with two spaces in YAML files.']);
    const edited = await store.edit(before.id, { content: 'Indent with two spaces in YAML files.', type: 'golden_rule', importance: 1, vector: vector! });
    expect(edited).toMatchObject({
      id: before.id, content: 'Indent with two spaces in YAML files.', type: 'golden_rule', importance: 1,
      sessionId: 's1', createdAt: before.createdAt, lastSeenAt: before.lastSeenAt, seenCount: 1,
    });
    expect(await store.count()).toBe(1);
    expect((await store.textSearch('YAML', { limit: 5 })).map((h) => h.record.id)).toEqual([before.id]);
    expect(await store.textSearch('tabs', { limit: 5 })).toEqual([]);
    expect((await store.search(vector!, { limit: 1 }))[0]).toMatchObject({ id: before.id });
    expect((await store.search(vector!, { limit: 1 }))[0]!.similarity).toBeGreaterThan(0.99);
    expect(await store.findByContentKey('global', 'indent with two spaces in yaml files')).toMatchObject({ id: before.id });
  });

  it('says NOT_FOUND for an id it does not hold', async () => {
    const store = await stores.openStore();
    await storeMemories([{ content: 'Use tabs.', type: 'preference', importance: 0.7 }], origin, { embedder, store, threshold: 0.85, clock: manualClock() });
    const [vector] = await embedder.embed(['x']);
    await expect(store.edit('01NOPE', { content: 'x', type: 'pattern', importance: 0.6, vector: vector! })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});
