/**
 * searchMemories against a real LanceDB store: the text side brings its candidates' rows, the vector
 * side only ids, and a row only the vector side found is read afterwards, only when it is shown.
 */
import { describe, expect, it } from 'vitest';
import type { MemoryStore, NewMemory } from '../../src/core/ports.js';
import { cosineSimilarity } from '../../src/core/cosine-similarity.js';
import { createHashEmbedder } from '../../src/embed/hash-embedder.js';
import { CANDIDATE_POOL, searchMemories, type SearchMode } from '../../src/search/search-memories.js';
import { useLanceStores } from '../support/lance-stores.js';

const stores = useLanceStores('recall-search-memories-');
const embedder = createHashEmbedder(64);
const NS = 'project:app-0000aaaa';

const TEXTS = [
  'You MUST use pnpm for every package install.',
  'You MUST NOT use npm install in this repository.',
  'Store money as integer cents in a BIGINT column.',
  'Run the migrations before the tests.',
  'Deploy with the blue green script, never by hand.',
  'Use pnpm workspaces for the packages folder.',
];

async function filledStore(): Promise<MemoryStore> {
  const store = await stores.openStore();
  const vectors = await embedder.embed(TEXTS);
  const memories: NewMemory[] = TEXTS.map((content, i) => ({
    content, vector: vectors[i] as Float32Array, type: 'preference', importance: 0.7,
    namespace: NS, projectRoot: '/work/app', sessionId: 's1', source: 'claude',
  }));
  await store.insert(memories, embedder.id);
  return store;
}

/** The store, with a record of every getMany call's ids; `beforeRead` runs before each read. */
function watched(store: MemoryStore, beforeRead: (ids: readonly string[]) => Promise<void> = async () => undefined) {
  const reads: string[][] = [];
  const spy: MemoryStore = Object.create(store) as MemoryStore;
  spy.getMany = async (ids) => {
    reads.push([...ids]);
    await beforeRead(ids);
    return store.getMany(ids);
  };
  return { spy, reads };
}

const search = (store: MemoryStore, query: string, mode: SearchMode, limit: number) =>
  searchMemories({ query, mode, filters: {}, limit, minScore: 0 }, { store, embedder: async () => embedder });

describe('searchMemories', () => {
  it.each(['hybrid', 'vector', 'text'] as const)('in %s mode reads afterwards only the rows shown that the text side did not bring', async (mode) => {
    const store = await filledStore();
    const { spy, reads } = watched(store);
    const hits = await search(spy, 'use pnpm to install packages', mode, 2);
    expect(hits).toHaveLength(2);
    const broughtByText = new Set(mode === 'vector' ? [] : (await store.textSearch('use pnpm to install packages', { limit: 40 })).map((h) => h.record.id));
    const unread = hits.map((h) => h.record.id).filter((id) => !broughtByText.has(id));
    expect(reads).toEqual(unread.length === 0 ? [] : [unread]);
    if (mode === 'vector') expect(reads).toEqual([hits.map((h) => h.record.id)]);
    expect(hits[0]!.score).toBeGreaterThanOrEqual(hits[1]!.score);
    expect(hits.every((h) => TEXTS.includes(h.record.content) && h.record.namespace === NS)).toBe(true);
    expect(hits.some((h) => h.record.content.includes('pnpm'))).toBe(true);
  });

  it('reads the rows of hits only the vector side found, in one read', async () => {
    const store = await filledStore();
    const { spy, reads } = watched(store);
    // No stored word is "pnpmfile", but its letters are close to "pnpm" for the hash embedder.
    expect(await store.textSearch('pnpmfile', {})).toEqual([]);
    const hits = await search(spy, 'pnpmfile', 'hybrid', 3);
    expect(hits.length).toBeGreaterThan(0);
    expect(hits[0]!.record.content).toContain('pnpm');
    expect(hits.every((h) => h.textScore === 0 && (h.vectorScore ?? 0) > 0)).toBe(true);
    expect(reads).toEqual([hits.map((h) => h.record.id)]);
  });

  it.each([
    ['pnpm', 'hybrid'],
    ['pnpmfile', 'hybrid'],
    ['pnpm', 'vector'],
    ['pnpm', 'text'],
  ] as const)('returns each hit with its whole stored record, whichever side brought it ("%s", %s)', async (query, mode) => {
    const store = await filledStore();
    const hits = await search(store, query, mode, 10);
    expect(hits.length).toBeGreaterThanOrEqual(2);
    const byId = new Map((await store.list({})).map((r) => [r.id, r]));
    for (const hit of hits) expect(hit.record).toEqual(byId.get(hit.record.id));
  });

  it('leaves out a memory deleted between the search and the read of its row, keeping the others in order', async () => {
    const store = await filledStore();
    const expected = await search(store, 'pnpm install', 'vector', 3);
    expect(expected).toHaveLength(3);
    const gone = expected[1]!.record.id;
    const { spy } = watched(store, async () => void (await store.delete([gone])));
    const hits = await search(spy, 'pnpm install', 'vector', 3);
    expect(hits.map((h) => h.record.id)).toEqual(expected.filter((h) => h.record.id !== gone).map((h) => h.record.id));
  });

  it('finds nothing in an empty store without loading the embedder', async () => {
    const store = await stores.openStore();
    const embedderNeverLoaded = () => Promise.reject(new Error('the embedder was loaded'));
    for (const mode of ['hybrid', 'vector', 'text'] as const) {
      expect(await searchMemories({ query: 'pnpm', mode, filters: {}, limit: 5, minScore: 0 }, { store, embedder: embedderNeverLoaded })).toEqual([]);
    }
  });

  it('reads nothing when nothing matches', async () => {
    const store = await filledStore();
    const { spy, reads } = watched(store);
    expect(await search(spy, 'kubernetes', 'text', 5)).toEqual([]);
    expect(reads).toEqual([]);
  });

  it('keeps a memory only the text side found in the top ten, scored by its real similarity rather than as zero', async () => {
    const store = await stores.openStore();
    // 150 memories close to the question's wording for the vector side; the one that answers shares only its rare word.
    const texts = [
      ...Array.from({ length: 150 }, (_, i) => `What did the team decide about the cache of service ${i}? We decided to keep it.`),
      'Zanzibar stays behind a flag until the audit is done.',
    ];
    await insertAll(store, texts);
    const question = 'What did the team decide about the zanzibar cache?';
    const hits = await search(store, question, 'hybrid', 10);
    const target = hits.find((h) => h.record.content === texts.at(-1));
    expect(target).toBeDefined();
    // The vector side did not bring it (150 memories are closer), yet its vector score is its own similarity.
    const [q, v] = await embedder.embed([question, texts.at(-1) as string]);
    const vectorPool = await store.search(q as Float32Array, { limit: 100 });
    expect(vectorPool.some((m) => m.id === target!.record.id)).toBe(false);
    expect(target!.vectorScore).toBeCloseTo(Math.max(0, cosineSimilarity(q as Float32Array, v as Float32Array)), 5);
    expect(target!.vectorScore).toBeGreaterThan(0);
  });

  it('reads the BM25 score of a memory only the vector side found when it could lift it into the results', async () => {
    const store = await stores.openStore();
    // 60 short memories fill the text side's pool with "deploy"; the answer holds it too, in a longer text, so it
    // ranks past the pool there, while its word pieces make it the closest for the (lexical) vector side.
    const answer = 'the billingz servicez deploy';
    await insertAll(store, [...Array.from({ length: 60 }, () => 'deploy it'), answer]);
    const question = 'deploy the billing service';
    const textPool = await store.textSearch(question, { limit: CANDIDATE_POOL });
    expect(textPool).toHaveLength(CANDIDATE_POOL);
    expect(textPool.some((h) => h.record.content === answer)).toBe(false);
    // A vector weight high enough for its similarity to lift it over the 60 short ones.
    const hits = await searchMemories({ query: question, mode: 'hybrid', filters: {}, limit: 10, minScore: 0, fusion: { vectorWeight: 0.9 } }, { store, embedder: async () => embedder });
    const hit = hits.find((h) => h.record.content === answer);
    const [exact] = await store.textScores('deploy billing service', [hit!.record.id]);
    expect(exact!.score).toBeGreaterThan(0);
    expect(hit!.textScore).toBeCloseTo(exact!.score / textPool[0]!.score, 5);
    expect(hits[0]!.record.content).toBe(answer);
  });

  it('scores no memory for question words or a speaker name alone on the text side', async () => {
    const store = await stores.openStore();
    const texts = ['Maria: ok', 'Maria: thanks!', 'Tom: what did you do?', 'Maria: I finally booked the flights to Lisbon', 'Tom: Lisbon sounds great'];
    await insertAll(store, texts);
    const hits = await search(store, 'What did Maria say about the Lisbon flights?', 'text', 10);
    expect(hits.map((h) => h.record.content).sort()).toEqual(['Maria: I finally booked the flights to Lisbon', 'Tom: Lisbon sounds great']);
  });

  it('ranks first the memory of the day a question names', async () => {
    const store = await stores.openStore();
    const days = ['2025-03-10', '2025-03-11', '2025-03-12', '2025-03-13'];
    const vectors = await embedder.embed(days.map(() => 'Decided to cache the price list for an hour.'));
    await store.restore(
      days.map((day, i) => ({
        id: `d${i}`, content: `Decided to cache the price list for ${i + 1} hours.`, vector: vectors[i] as Float32Array, type: 'decision', importance: 0.8,
        namespace: NS, projectRoot: null, sessionId: null, source: 'claude', embedder: embedder.id,
        createdAt: `${day}T15:00:00.000Z`, lastSeenAt: `${day}T15:00:00.000Z`, seenCount: 1,
      })),
      embedder.id,
    );
    for (const question of ['What did we decide about caching prices on 12 March 2025?', 'what was decided on 2025-03-12 about the price list cache']) {
      const hits = await search(store, question, 'hybrid', 4);
      expect(hits[0]!.record.createdAt.slice(0, 10)).toBe('2025-03-12');
    }
  });
});

async function insertAll(store: MemoryStore, texts: readonly string[]): Promise<void> {
  const vectors = await embedder.embed(texts);
  await store.insert(
    texts.map((content, i) => ({ content, vector: vectors[i] as Float32Array, type: 'session', importance: 0.3, namespace: NS, projectRoot: null, sessionId: 's1', source: 'claude' })),
    embedder.id,
  );
}
