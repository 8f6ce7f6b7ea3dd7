/** Superseded memories against a real LanceDB store: history kept, reads current, old tables migrated, export/import round trip. */
import { describe, expect, it } from 'vitest';
import { openLanceStore } from '../../src/adapters/lance-store.js';
import { ADDED_COLUMNS, TABLE } from '../../src/adapters/lance-rows.js';
import { memorySchema } from '../../src/adapters/lance-tables.js';
import type { MemoryOrigin } from '../../src/core/memory.js';
import { createHashEmbedder } from '../../src/embed/hash-embedder.js';
import { importMemories } from '../../src/store/import-memories.js';
import { formatMemoryLine } from '../../src/store/memory-lines.js';
import { storeMemories } from '../../src/store/store-memories.js';
import { previewStore } from '../../src/store/preview-store.js';
import { readVersionChain } from '../../src/store/version-chain.js';
import { manualClock, useLanceStores } from '../support/lance-stores.js';

const stores = useLanceStores('recall-supersede-');
const embedder = createHashEmbedder();
const origin: MemoryOrigin = { namespace: 'global', projectRoot: null, sessionId: null, source: 'manual' };
const memory = (content: string) => ({ content, type: 'decision' as const, importance: 0.8 });

async function storeWithHistory() {
  const clock = manualClock();
  const store = await stores.openStore(clock);
  const deps = { embedder, store, threshold: 0.85, clock };
  const first = await storeMemories([memory('Use PostgreSQL 15 for the orders database.')], origin, deps);
  clock.advance(60_000);
  const second = await storeMemories([memory('Use PostgreSQL 16 for the orders database.')], origin, deps);
  return { store, clock, deps, oldId: first.inserted[0]!.id, newId: second.inserted[0]!.id, second };
}

describe('superseded memories in the store', () => {
  it('keeps the old version as history, marked with the new id and the time, and reads only the new one', async () => {
    const { store, oldId, newId, second } = await storeWithHistory();
    expect(second.superseded).toEqual([{ id: oldId, by: newId }]);
    expect((await store.list({})).map((r) => r.id)).toEqual([newId]);
    expect((await store.list({ allVersions: true })).map((r) => r.id).sort()).toEqual([oldId, newId].sort());
    expect(await store.get(oldId)).toMatchObject({ supersededBy: newId, supersededAt: '2024-05-01T10:01:00.000Z', provenance: null, status: null });
    expect(await store.count()).toBe(2);
    const [vector] = await embedder.embed(['PostgreSQL orders database']);
    expect((await store.search(vector!, { limit: 5 })).map((m) => m.id)).toEqual([newId]);
    expect((await store.textSearch('PostgreSQL', { limit: 5 })).map((h) => h.record.id)).toEqual([newId]);
  });

  it('never reinforces or supersedes a memory that is already history', async () => {
    const { store, deps, oldId, newId } = await storeWithHistory();
    const again = await storeMemories([memory('Use PostgreSQL 15 for the orders database.')], origin, deps);
    // The old text again is a change back: a new current memory that replaces 16; the old row stays as it was.
    expect(again.reinforced).toEqual([]);
    expect(again.superseded).toEqual([{ id: newId, by: again.inserted[0]!.id }]);
    expect(await store.get(oldId)).toMatchObject({ supersededBy: newId, seenCount: 1 });
  });

  it('counts a changed decision as a supersede in the eval preview, and stores nothing', async () => {
    const clock = manualClock();
    const store = await stores.openStore(clock);
    await storeMemories([memory('Run unit tests with jest.')], origin, { embedder, store, threshold: 0.85, clock });
    const effect = await previewStore(
      [memory('Run unit tests with vitest.'), memory('Run unit tests with jest.'), memory('Rotate API keys every 90 days.')],
      'global',
      { embedder, store, decide: { threshold: 0.85, band: 0.5, judge: null } },
    );
    expect(effect).toMatchObject({ duplicates: 1, supersedes: 1, fresh: 1 });
    // Each memory says what it would do; the replaced one with its stored text.
    expect(effect.outcomes.map((o) => o.verdict)).toEqual(['replaces', 'duplicate', 'new']);
    expect(effect.outcomes[0]?.replaces.map((r) => r.content)).toEqual(['Run unit tests with jest.']);
    expect(effect.outcomes[1]?.duplicateOf?.content).toBe('Run unit tests with jest.');
    expect(await store.count()).toBe(1);
  });

  it('reads the version chain from either end', async () => {
    const { store, oldId, newId } = await storeWithHistory();
    const fromOld = await readVersionChain(store, (await store.get(oldId))!);
    expect(fromOld.older).toEqual([]);
    expect(fromOld.newer.map((r) => r.id)).toEqual([newId]);
    const fromNew = await readVersionChain(store, (await store.get(newId))!);
    expect(fromNew.older.map((r) => r.id)).toEqual([oldId]);
    expect(fromNew.newer).toEqual([]);
  });

  it('reinforces a reworded memory instead of storing it again', async () => {
    const clock = manualClock();
    const store = await stores.openStore(clock);
    const deps = { embedder, store, threshold: 0.85, clock };
    await storeMemories([memory('Never force-push to the main branch.')], origin, deps);
    const again = await storeMemories([memory('Do not force push to main.')], origin, deps);
    expect(again.inserted).toEqual([]);
    expect(again.reinforced).toHaveLength(1);
    expect((await store.list({ allVersions: true })).map((r) => r.seenCount)).toEqual([2]);
  });

  it('carries the history through export and import, and decides on a current line from an older export', async () => {
    const { store } = await storeWithHistory();
    const lines: string[] = [];
    for await (const batch of store.scan({ allVersions: true, batchSize: 10 })) for (const m of batch) lines.push(formatMemoryLine(m, m.vector));
    expect(lines).toHaveLength(2);

    const clock = manualClock('2024-06-01T00:00:00.000Z');
    const target = await openLanceStore(`${stores.dir()}/other`, { clock });
    try {
      // The target already holds a newer decision than either line of the file.
      await storeMemories([memory('Use PostgreSQL 17 for the orders database.')], origin, { embedder, store: target, threshold: 0.85, clock });
      const result = await importMemories(lines.join('\n'), { store: target, embedder, threshold: 0.85, withStoreLock: (fn) => fn() });
      expect(result.imported).toBe(2);
      const current = await target.list({});
      expect(current.map((r) => r.content)).toEqual(['Use PostgreSQL 17 for the orders database.']);
      const all = await target.list({ allVersions: true });
      const byContent = new Map(all.map((r) => [r.content, r]));
      const v15 = byContent.get('Use PostgreSQL 15 for the orders database.')!;
      const v16 = byContent.get('Use PostgreSQL 16 for the orders database.')!;
      expect(v15.supersededBy).toBe(v16.id);
      expect(v16.supersededBy).toBe(current[0]!.id);
    } finally {
      await target.close();
    }
  });

  it('indexes superseded_by with the id index when the store is maintained', async () => {
    const { store } = await storeWithHistory();
    const report = await store.maintain({ vectorIndexMinRows: 2, optimizeEveryVersions: 50, pruneGraceMs: 0 });
    expect(report.idIndex).toBe(true);
    const lancedb = await import('@lancedb/lancedb');
    const t = await (await lancedb.connect(stores.dir())).openTable(TABLE);
    expect((await t.listIndices()).filter((i) => i.indexType === 'BTree').map((i) => i.columns).sort()).toEqual([['id'], ['superseded_by']]);
    t.close();
    expect((await store.list({})).map((r) => r.content)).toEqual(['Use PostgreSQL 16 for the orders database.']);
  });

  it('gives a table made before the version columns those columns on open, and keeps its rows', async () => {
    const dir = stores.dir();
    const [lancedb, arrow] = await Promise.all([import('@lancedb/lancedb'), import('apache-arrow')]);
    const full = memorySchema(arrow, embedder.id, 384);
    const oldShape = new arrow.Schema(full.fields.filter((f) => !(ADDED_COLUMNS as readonly string[]).includes(f.name)), full.metadata);
    const conn = await lancedb.connect(dir);
    const [vector] = await embedder.embed(['Use tabs in Makefiles.']);
    const row = {
      id: '01OLD', content: 'Use tabs in Makefiles.', content_key: 'use tabs in makefiles', type: 'preference', importance: 0.7,
      namespace: 'global', project_root: null, session_id: null, source: 'manual', embedder: embedder.id,
      created_at: '2024-01-01T00:00:00.000Z', last_seen_at: '2024-01-01T00:00:00.000Z', seen_count: 1, vector: Array.from(vector!),
    };
    const old = await conn.createTable(TABLE, [row], { schema: oldShape });
    expect((await old.schema()).fields.map((f) => f.name)).not.toContain('superseded_by');
    old.close();
    conn.close();

    const store = await stores.openStore();
    expect(await store.list({})).toEqual([expect.objectContaining({ id: '01OLD', supersededBy: null, supersededAt: null, provenance: null, status: null })]);
    const reopened = await (await lancedb.connect(dir)).openTable(TABLE);
    const fields = (await reopened.schema()).fields;
    for (const name of ADDED_COLUMNS) expect(fields.find((f) => f.name === name)?.nullable).toBe(true);
    reopened.close();
  });
});
