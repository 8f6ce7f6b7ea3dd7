/**
 * The BITMAP index on `namespace` the upkeep builds with the key indexes: made for new and existing
 * stores, and a search filtered on namespaces answers as it did without it.
 */
import { describe, expect, it } from 'vitest';
import { TABLE } from '../../src/adapters/lance-rows.js';
import type { LanceStore } from '../../src/adapters/lance-store.js';
import type { NewMemory } from '../../src/core/ports.js';
import { createHashEmbedder } from '../../src/embed/hash-embedder.js';
import { useLanceStores } from '../support/lance-stores.js';

const stores = useLanceStores('recall-namespace-index-');
const embedder = createHashEmbedder(64);
const POLICY = { vectorIndexMinRows: 300, optimizeEveryVersions: 50, pruneGraceMs: 0 };
const TOPICS = ['deploy', 'pnpm', 'migrations', 'tokens', 'money', 'logs'];

async function filledStore(): Promise<LanceStore> {
  const store = await stores.openStore();
  const texts = Array.from({ length: 400 }, (_, i) => `You MUST ${TOPICS[i % TOPICS.length]} rule ${i} for service ${i % 7}`);
  const vectors = await embedder.embed(texts);
  const memories: NewMemory[] = texts.map((content, i) => ({
    content, vector: vectors[i]!, type: 'preference', importance: 0.7,
    namespace: i % 5 === 0 ? 'global' : `project:app${i % 4}-0000aaaa`, projectRoot: null, sessionId: 's1', source: 'claude',
  }));
  await store.insert(memories, embedder.id);
  return store;
}

async function indexKinds(): Promise<Record<string, string>> {
  const lancedb = await import('@lancedb/lancedb');
  const table = await (await lancedb.connect(stores.dir())).openTable(TABLE);
  const kinds = Object.fromEntries((await table.listIndices()).map((index) => [index.columns.join(','), index.indexType]));
  table.close();
  return kinds;
}

async function dropIndex(name: string): Promise<void> {
  const lancedb = await import('@lancedb/lancedb');
  const table = await (await lancedb.connect(stores.dir())).openTable(TABLE);
  await table.dropIndex(name);
  table.close();
}

async function namespacedAnswers(store: LanceStore): Promise<string[]> {
  const answers: string[] = [];
  for (const [i, topic] of TOPICS.entries()) {
    const namespaces = [`project:app${i % 4}-0000aaaa`, 'global'];
    const [vector] = await embedder.embed([`${topic} rule`]);
    answers.push(JSON.stringify(await store.search(vector!, { namespaces, limit: 8 })));
    answers.push(JSON.stringify(await store.textSearch(topic, { namespaces, limit: 8 })));
    // The dedupe lookup probes every partition of an index this small: exact before and after.
    answers.push(JSON.stringify((await store.nearest(namespaces[0]!, vector!, 8)).map((n) => [n.record.id, n.similarity])));
  }
  return answers;
}

describe('the namespace index', () => {
  it('comes with the key indexes, and namespaced searches answer as before it', async () => {
    const store = await filledStore();
    const before = await namespacedAnswers(store);
    expect(before.some((answer) => answer.length > 2)).toBe(true);
    expect((await store.maintain(POLICY)).idIndex).toBe(true);
    expect(await indexKinds()).toMatchObject({ id: 'BTree', superseded_by: 'BTree', namespace: 'Bitmap' });
    // The vector index came too. The dedupe lookup re-ranks deeply enough to stay exact with it; a
    // reader's search over one-bit codes is approximate by design, so it is compared once the vector
    // index is dropped again, leaving the namespace index as the one difference.
    const withVectorIndex = await namespacedAnswers(store);
    for (let i = 0; i < before.length; i += 3) {
      expect(withVectorIndex[i + 1]).toEqual(before[i + 1]);
      expect(withVectorIndex[i + 2]).toEqual(before[i + 2]);
    }
    await dropIndex('vector_idx');
    expect(await indexKinds()).toMatchObject({ namespace: 'Bitmap' });
    expect(await namespacedAnswers(store)).toEqual(before);
  });

  it('is added to a store that has the other key indexes but not this one', async () => {
    const store = await filledStore();
    await store.maintain(POLICY);
    await dropIndex('namespace_idx');
    expect((await indexKinds()).namespace).toBeUndefined();
    expect(await store.maintenanceDue(POLICY)).toBe(true);
    expect((await store.maintain(POLICY)).idIndex).toBe(true);
    expect((await indexKinds()).namespace).toBe('Bitmap');
  });
});
