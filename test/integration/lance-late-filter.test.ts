/**
 * On a big table, a plain search (current, maybe not quarantined) checks that filter on its answers
 * instead of before the search: the answers are the same as the filtered search's, also when most of
 * the best rows fail it (the search then runs filtered).
 */
import { describe, expect, it } from 'vitest';
import { openLanceStore, type LanceStore } from '../../src/adapters/lance-store.js';
import { useLanceStores } from '../support/lance-stores.js';
import { seededRandom, unitVector } from '../support/seeded-vectors.js';
import type { ListOptions, StoredMemory } from '../../src/core/ports.js';

const EMBEDDER = 'test:seeded';
const DIM = 16;
const WORDS = ['pnpm', 'bigint', 'retry', 'webhook', 'timezone', 'tokens', 'release', 'migrations'];

const stores = useLanceStores('recall-lance-late-filter-');

/** Rows with one to three of WORDS; `replaced(i)` rows have a newer version, every fifth is quarantined. */
function rows(count: number, replaced: (i: number) => boolean): StoredMemory[] {
  const next = seededRandom(count);
  return Array.from({ length: count }, (_, i) => ({
    id: `01J${String(i).padStart(23, '0')}`,
    content: `rule ${i}: ${WORDS[i % 8]} ${i % 3 === 0 ? WORDS[(i * 5) % 8] : ''} ${i % 4 === 0 ? WORDS[(i * 3) % 8] : ''} item${i}`,
    vector: unitVector(Float32Array.from({ length: DIM }, next)), type: 'preference', importance: 0.5,
    namespace: 'project:app-0000aaaa', projectRoot: null, sessionId: null, source: 'test', embedder: EMBEDDER,
    createdAt: '2024-01-01T00:00:00.000Z', lastSeenAt: '2024-01-01T00:00:00.000Z', seenCount: 1,
    supersededBy: replaced(i) ? '01JNEWER' : null, supersededAt: replaced(i) ? '2024-02-01T00:00:00.000Z' : null,
    status: i % 5 === 0 ? 'quarantined' : null,
  }));
}

const FILTERS: ListOptions[] = [{}, { quarantine: 'exclude' }, { limit: 3 }, { allVersions: true }, { type: 'preference' }];

async function expectSameAnswers(late: LanceStore, before: LanceStore): Promise<void> {
  const next = seededRandom(5);
  for (let q = 0; q < 4; q += 1) {
    const query = unitVector(Float32Array.from({ length: DIM }, next));
    for (const filters of FILTERS) {
      const options = { limit: 10, ...filters };
      expect(await late.search(query, options), JSON.stringify(filters)).toEqual(await before.search(query, options));
      for (const words of ['pnpm', 'retry webhook', 'tokens release migrations']) {
        const scores = (hits: Array<{ score: number; record: { supersededBy?: string | null } }>) => hits.map((h) => [h.score, h.record.supersededBy]);
        expect(scores(await late.textSearch(words, options)), `${words} ${JSON.stringify(filters)}`).toEqual(scores(await before.textSearch(words, options)));
      }
    }
  }
}

describe('a near-total filter checked after the search', () => {
  it('answers as the filtered search when few rows fail it', async () => {
    const writer = await stores.openStore();
    await writer.restore(rows(300, (i) => i % 7 === 0), EMBEDDER);
    const late = await openLanceStore(stores.dir(), { lateFilterMinRows: 0 });
    try {
      await expectSameAnswers(late, writer);
    } finally {
      await late.close();
    }
  });

  it('answers as the filtered search when most of the best rows fail it', async () => {
    const writer = await stores.openStore();
    await writer.restore(rows(300, (i) => i % 10 !== 0), EMBEDDER);
    const late = await openLanceStore(stores.dir(), { lateFilterMinRows: 0 });
    try {
      await expectSameAnswers(late, writer);
      expect((await late.search(unitVector(Float32Array.from({ length: DIM }, seededRandom(9))), { limit: 10 })).length).toBe(10);
    } finally {
      await late.close();
    }
  });
});
