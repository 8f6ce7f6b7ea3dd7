/**
 * The dedupe lookup for many memories at once (one streamed pass without a vector index, the index one
 * memory at a time with one) answers exactly as findByContentKey and nearest do memory by memory: the
 * same exact matches, the same neighbours in the same order, the same similarities.
 */
import { describe, expect, it } from 'vitest';
import { contentKey } from '../../src/core/memory.js';
import type { ContentLookup, NewMemory } from '../../src/core/ports.js';
import type { LanceStore } from '../../src/adapters/lance-store.js';
import { createHashEmbedder } from '../../src/embed/hash-embedder.js';
import { useLanceStores } from '../support/lance-stores.js';

const stores = useLanceStores('recall-lookup-many-');
const embedder = createHashEmbedder();
const NAMESPACES = ['global', 'project:shop-1a2b3c4d', 'project:api-5e6f7a8b'];

function text(i: number): string {
  return `Rule ${i}: prefer option ${(i * 7919) % 97} in module ${(i * 31) % 23} of the ${['billing', 'search', 'auth'][i % 3]} service.`;
}

async function seed(store: LanceStore, count: number): Promise<void> {
  const texts = Array.from({ length: count }, (_, i) => text(i));
  const vectors = await embedder.embed(texts);
  const memories: NewMemory[] = texts.map((content, i) => ({
    content, type: 'pattern', importance: 0.5, namespace: NAMESPACES[i % NAMESPACES.length]!, projectRoot: null, sessionId: null, source: 'test', vector: vectors[i]!,
  }));
  await store.insert(memories, embedder.id);
}

async function queries() {
  // Stored texts (exact matches), near ones, and unknown ones, in every namespace; one zero-free vector each.
  const texts = [...[3, 17, 250].map(text), 'Rule 17: prefer option 39 in module 22 of the search service!', 'Use tabs in Makefiles.', text(401)];
  const vectors = await embedder.embed(texts);
  return NAMESPACES.flatMap((namespace) => texts.map((t, i) => ({ namespace, contentKey: contentKey(t), vector: vectors[i]! })));
}

async function oneByOne(store: LanceStore, qs: Awaited<ReturnType<typeof queries>>): Promise<ContentLookup[]> {
  const out: ContentLookup[] = [];
  for (const q of qs) out.push({ exact: await store.findByContentKey(q.namespace, q.contentKey), nearest: await store.nearest(q.namespace, q.vector, 5) });
  return out;
}

function shape(lookups: readonly ContentLookup[]) {
  return lookups.map((l) => ({ exact: l.exact?.id ?? null, nearest: l.nearest.map((n) => [n.record.id, n.record.content, Number(n.similarity.toFixed(6))]) }));
}

describe('lookupMany', () => {
  it('answers as findByContentKey and nearest do, without a vector index', async () => {
    const store = await stores.openStore();
    await seed(store, 400);
    const qs = await queries();
    const many = await store.lookupMany!(qs, 5);
    expect(shape(many)).toEqual(shape(await oneByOne(store, qs)));
    expect(many.filter((l) => l.exact !== null).length).toBeGreaterThan(0);
    expect(many.every((l) => l.nearest.length === 5)).toBe(true);
  });

  it('answers as findByContentKey and nearest do, with a vector index', async () => {
    const store = await stores.openStore();
    await seed(store, 400);
    const report = await store.maintain({ vectorIndexMinRows: 256, optimizeEveryVersions: 50, pruneGraceMs: 0 });
    expect(report.vectorIndex).toBe('built');
    const qs = await queries();
    expect(shape(await store.lookupMany!(qs, 5))).toEqual(shape(await oneByOne(store, qs)));
  });

  it('finds nothing in an empty store or for no memories', async () => {
    const store = await stores.openStore();
    expect(await store.lookupMany!(await queries(), 5)).toEqual((await queries()).map(() => ({ exact: null, nearest: [] })));
    await seed(store, 10);
    expect(await store.lookupMany!([], 5)).toEqual([]);
  });
});
