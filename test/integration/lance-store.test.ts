import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { contentsOf, manualClock, useLanceStores } from '../support/lance-stores.js';
import { isRecallError } from '../../src/core/errors.js';
import { contentKey } from '../../src/core/memory.js';
import type { CandidateMemory, MemoryOrigin } from '../../src/core/memory.js';
import type { Embedder, NewMemory } from '../../src/core/ports.js';
import { storeMemories } from '../../src/store/store-memories.js';

const EMBEDDER = 'test:unit-axes';
const NS = 'project:app-0000aaaa';

const stores = useLanceStores('recall-lance-');
const openStore = stores.openStore;

/** A unit vector of dimension 8 leaning towards axis `i`, tilted by `tilt` towards axis i+1. */
function axis(i: number, tilt = 0, dim = 8): Float32Array {
  const v = new Float32Array(dim);
  v[i % dim] = 1;
  v[(i + 1) % dim] = tilt;
  const norm = Math.hypot(...v);
  return v.map((x) => x / norm);
}

function memory(content: string, vector: Float32Array, over: Partial<NewMemory> = {}): NewMemory {
  return {
    content, vector, type: 'preference', importance: 0.7, namespace: NS, projectRoot: '/work/app',
    sessionId: 'session-1', source: 'claude', ...over,
  };
}

async function expectCode(promise: Promise<unknown>, code: string): Promise<void> {
  const err = await promise.then(() => null, (e: unknown) => e);
  expect(isRecallError(err) ? err.code : err).toBe(code);
}

/** Deterministic hashed bag of words: shared words mean similar vectors. */
function bagOfWordsEmbedder(id = 'test:bag-of-words', dim = 64): Embedder & { calls: number } {
  return {
    id,
    calls: 0,
    async embed(texts) {
      this.calls += 1;
      return texts.map((text) => {
        const v = new Float32Array(dim);
        for (const word of text.toLowerCase().match(/[a-z0-9]+/g) ?? []) {
          let h = 2166136261;
          for (const ch of word) h = Math.imul(h ^ ch.charCodeAt(0), 16777619);
          const k = (h >>> 0) % dim;
          v[k] = (v[k] ?? 0) + 1;
        }
        const norm = Math.hypot(...v) || 1;
        return v.map((x) => x / norm);
      });
    },
  };
}

function origin(sessionId: string, namespace = NS): MemoryOrigin {
  return { namespace, projectRoot: '/work/app', sessionId, source: 'claude' };
}

function rule(content: string): CandidateMemory {
  return { content, type: 'golden_rule', importance: 1 };
}

describe('LanceDB memory store', () => {
  it('reports no embedder, no rows and no neighbours before the first insert', async () => {
    const store = await openStore();
    expect(await store.embedderInfo()).toBeNull();
    expect(await store.count()).toBe(0);
    expect(await store.nearest(NS, axis(0), 5)).toEqual([]);
    expect(await store.list({})).toEqual([]);
    expect(await store.findByContentKey(NS, 'x')).toBeNull();
  });

  it('finds an inserted memory again with similarity about 1 for the same vector', async () => {
    const store = await openStore();
    const [rec] = await store.insert([memory('Use pnpm, not npm.', axis(0)), memory('Tabs, not spaces.', axis(3))], EMBEDDER);
    expect(rec).toMatchObject({ content: 'Use pnpm, not npm.', seenCount: 1, embedder: EMBEDDER, namespace: NS, sessionId: 'session-1' });
    expect(rec?.id).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/);

    const found = await store.nearest(NS, axis(0), 5);
    expect(found[0]?.record.id).toBe(rec?.id);
    expect(found[0]?.similarity).toBeCloseTo(1, 5);
    expect(found[1]?.similarity).toBeCloseTo(0, 5);
    expect(await store.embedderInfo()).toEqual({ embedder: EMBEDDER, dimension: 8 });
  });

  it('keeps namespaces apart in nearest, findByContentKey, list and count', async () => {
    const store = await openStore();
    await store.insert([memory('shared rule', axis(0)), memory('shared rule', axis(0), { namespace: 'global' })], EMBEDDER);
    await store.insert([memory('other project rule', axis(1), { namespace: 'project:other-11112222' })], EMBEDDER);

    expect((await store.nearest(NS, axis(1), 10)).map((n) => n.record.namespace)).toEqual([NS]);
    expect((await store.findByContentKey('global', contentKey('Shared rule.')))?.namespace).toBe('global');
    expect(await store.findByContentKey('project:nope-00000000', 'shared rule')).toBeNull();
    expect(await store.count({ namespace: NS })).toBe(1);
    expect(await store.count()).toBe(3);
    expect((await store.list({ namespace: 'project:other-11112222' })).map((r) => r.content)).toEqual(['other project rule']);
  });

  it('handles quotes and backslashes in namespaces and content safely', async () => {
    const store = await openStore();
    const odd = "project:o'brien's \\app\" OR 1=1 --";
    await store.insert([memory("don't use 'any'", axis(2), { namespace: odd }), memory('plain', axis(2))], EMBEDDER);
    expect(await store.count({ namespace: odd })).toBe(1);
    expect((await store.nearest(odd, axis(2), 10)).map((n) => n.record.content)).toEqual(["don't use 'any'"]);
    const exact = await store.findByContentKey(odd, contentKey("Don't use 'any'."));
    expect(exact?.namespace).toBe(odd);
    await store.reinforce(exact?.id ?? '', new Date('2024-06-01T00:00:00.000Z'));
    expect((await store.list({ namespace: odd }))[0]?.seenCount).toBe(2);
    expect(await store.count({ namespace: "x' OR '1'='1" })).toBe(0);
  });

  it('reinforces by bumping the seen count and moving last-seen forward, never back', async () => {
    const store = await openStore();
    const [rec] = await store.insert([memory('rule', axis(0))], EMBEDDER);
    const id = rec?.id ?? '';
    await store.reinforce(id, new Date('2024-07-01T00:00:00.000Z'));
    await store.reinforce(id, new Date('2024-06-01T00:00:00.000Z'));
    const [after] = await store.list({});
    expect(after).toMatchObject({ id, seenCount: 3, lastSeenAt: '2024-07-01T00:00:00.000Z', createdAt: rec?.createdAt });
    await expectCode(store.reinforce('01NOSUCHID0000000000000000', new Date()), 'NOT_FOUND');
  });

  it('lists newest first and filters by namespace, type and limit', async () => {
    const clock = manualClock();
    const store = await openStore(clock);
    await store.insert([memory('first', axis(0), { type: 'decision' })], EMBEDDER);
    clock.advance(1000);
    await store.insert([memory('second', axis(1)), memory('third', axis(2), { type: 'decision' })], EMBEDDER);
    clock.advance(1000);
    await store.insert([memory('fourth', axis(3), { namespace: 'global' })], EMBEDDER);
    // An update rewrites rows; order must still come from created_at, not storage order.
    const firstId = (await store.findByContentKey(NS, 'first'))?.id ?? '';
    await store.reinforce(firstId, clock.now());

    expect((await store.list({})).map((r) => r.content)).toEqual(['fourth', 'third', 'second', 'first']);
    expect((await store.list({ namespace: NS, limit: 2 })).map((r) => r.content)).toEqual(['third', 'second']);
    expect((await store.list({ namespace: NS, type: 'decision' })).map((r) => r.content)).toEqual(['third', 'first']);
    expect(await store.list({ limit: 0 })).toEqual([]);
  });

  it('searches across namespaces or within one, most similar first', async () => {
    const store = await openStore();
    await store.insert([memory('near', axis(0, 0.1)), memory('far', axis(4)), memory('elsewhere', axis(0), { namespace: 'global' })], EMBEDDER);
    expect(await contentsOf(store, await store.search(axis(0), { limit: 2 }))).toEqual(['elsewhere', 'near']);
    expect(await contentsOf(store, await store.search(axis(0), { namespace: NS }))).toEqual(['near', 'far']);
    expect(await store.search(new Float32Array(8), {})).toEqual([]);
  });

  it('refuses vectors from another embedder or of another dimension', async () => {
    const store = await openStore();
    await store.insert([memory('rule', axis(0))], EMBEDDER);
    await expectCode(store.insert([memory('other', axis(1))], 'test:other-model'), 'EMBEDDER_MISMATCH');
    await expectCode(store.insert([memory('wide', axis(1, 0, 16))], EMBEDDER), 'EMBEDDER_MISMATCH');
    await expectCode(store.nearest(NS, axis(1, 0, 4), 3), 'EMBEDDER_MISMATCH');
    await expectCode(store.insert([memory('nan', new Float32Array(8).fill(Number.NaN))], EMBEDDER), 'INPUT_INVALID');
    expect(await store.count()).toBe(1);
  });

  it('sees the rows and the embedder again after reopening', async () => {
    const first = await openStore();
    await first.insert([memory('persisted', axis(5))], EMBEDDER);
    await first.close();
    const second = await openStore();
    expect(await second.embedderInfo()).toEqual({ embedder: EMBEDDER, dimension: 8 });
    expect((await second.list({})).map((r) => r.content)).toEqual(['persisted']);
    await expectCode(second.insert([memory('x', axis(1))], 'test:other-model'), 'EMBEDDER_MISMATCH');
  });

  it("sees another connection's writes immediately, including the table's creation", async () => {
    const a = await openStore();
    const b = await openStore();
    expect(await b.embedderInfo()).toBeNull();
    const [rec] = await a.insert([memory('from a', axis(0))], EMBEDDER);
    expect(await b.count()).toBe(1);
    await b.reinforce(rec?.id ?? '', new Date('2030-01-01T00:00:00.000Z'));
    expect((await a.list({}))[0]?.seenCount).toBe(2);
    await b.insert([memory('from b', axis(1))], EMBEDDER);
    expect((await a.nearest(NS, axis(1), 1))[0]?.record.content).toBe('from b');
  });

  it('turns library failures into STORE_FAILED and refuses use after close', async () => {
    const store = await openStore();
    await store.insert([memory('rule', axis(0))], EMBEDDER);
    rmSync(join(stores.dir(), 'memories.lance'), { recursive: true, force: true });
    await expectCode(store.count(), 'STORE_FAILED');
    await expectCode(store.list({}), 'STORE_FAILED');
    await store.close();
    await expectCode(store.count(), 'STORE_FAILED');
  });
});

describe('storeMemories against LanceDB', () => {
  const deps = async (clock = manualClock(), embedder = bagOfWordsEmbedder()) => ({
    embedder, clock, threshold: 0.9, store: await openStore(clock),
  });

  it('stores the same memory twice as one row seen twice', async () => {
    const d = await deps();
    const first = await storeMemories([rule('Always run the linter before committing.')], origin('s1'), d);
    expect(first.inserted).toHaveLength(1);
    const second = await storeMemories([rule('always run the linter before committing')], origin('s2'), d);
    expect(second).toMatchObject({ inserted: [], reinforced: [{ id: first.inserted[0]?.id, similarity: 1 }], skipped: 0 });
    const rows = await d.store.list({ namespace: NS });
    expect(rows).toHaveLength(1);
    expect(rows[0]?.seenCount).toBe(2);
  });

  it('reinforces a near-duplicate above the threshold instead of inserting it', async () => {
    const d = await deps();
    const first = await storeMemories([rule('always run the linter before committing code')], origin('s1'), d);
    const second = await storeMemories([rule('always run the linter before committing your code')], origin('s2'), d);
    expect(second.inserted).toEqual([]);
    expect(second.reinforced[0]?.id).toBe(first.inserted[0]?.id);
    expect(second.reinforced[0]?.similarity).toBeGreaterThanOrEqual(0.9);
    expect(second.reinforced[0]?.similarity).toBeLessThan(1);
    expect(await d.store.count({ namespace: NS })).toBe(1);
  });

  it('inserts distinct memories in one call and skips duplicates within the batch', async () => {
    const d = await deps();
    const result = await storeMemories(
      [rule('use pnpm for installs'), rule('Use pnpm for installs.'), rule('prefer named exports over default exports')],
      origin('s1'),
      d,
    );
    expect(result.inserted.map((r) => r.content)).toEqual(['use pnpm for installs', 'prefer named exports over default exports']);
    expect(result.skipped).toBe(1);
    expect(d.embedder.calls).toBe(1);
    expect(await d.store.count({ namespace: NS })).toBe(2);
  });

  it('adds nothing and reinforces nothing when the same session is stored again', async () => {
    const d = await deps();
    const batch = [rule('never commit secrets'), rule('write tests first for parsers')];
    await storeMemories(batch, origin('s1'), d);
    const again = await storeMemories(batch, origin('s1'), d);
    expect(again).toEqual({ inserted: [], reinforced: [], superseded: [], skipped: 2, quarantined: [], proposed: [] });
    expect((await d.store.list({ namespace: NS })).map((r) => r.seenCount)).toEqual([1, 1]);
  });

  it('keeps a quoted namespace separate from its neighbours', async () => {
    const d = await deps();
    const odd = "project:it's-a-trap-deadbeef";
    await storeMemories([rule('keep functions small')], origin('s1', odd), d);
    const other = await storeMemories([rule('keep functions small')], origin('s2', NS), d);
    expect(other.inserted).toHaveLength(1);
    const again = await storeMemories([rule('keep functions small')], origin('s3', odd), d);
    expect(again.reinforced).toHaveLength(1);
    expect(await d.store.count({ namespace: odd })).toBe(1);
  });

  it('refuses to mix embedders before embedding anything', async () => {
    const d = await deps();
    await storeMemories([rule('one rule')], origin('s1'), d);
    const other = bagOfWordsEmbedder('test:another-model');
    await expectCode(storeMemories([rule('two rule')], origin('s2'), { ...d, embedder: other }), 'EMBEDDER_MISMATCH');
    expect(other.calls).toBe(0);
    const wider = bagOfWordsEmbedder('test:bag-of-words', 128);
    await expectCode(storeMemories([rule('three rule')], origin('s3'), { ...d, embedder: wider }), 'EMBEDDER_MISMATCH');
  });
});
