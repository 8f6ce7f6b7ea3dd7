/** reindexMemories against the real LanceDB store: batches, progress, and memories captured mid-run. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openLanceStore } from '../../src/adapters/lance-store.js';
import type { LanceStore } from '../../src/adapters/lance-store.js';
import { contentsOf } from '../support/lance-stores.js';
import type { NewMemory } from '../../src/core/ports.js';
import { createHashEmbedder } from '../../src/embed/hash-embedder.js';
import { reindexMemories } from '../../src/store/reindex-memories.js';

let dir: string;
let store: LanceStore;
const oldEmbedder = createHashEmbedder(384);
const newEmbedder = createHashEmbedder(48);
const noLock = <T>(fn: () => Promise<T>) => fn();

async function memories(texts: string[]): Promise<NewMemory[]> {
  const vectors = await oldEmbedder.embed(texts);
  return texts.map((content, i) => ({
    content, vector: vectors[i]!, type: 'pattern', importance: 0.6, namespace: 'global', projectRoot: null, sessionId: null, source: 'test',
  }));
}

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'recall-reindex-'));
  store = await openLanceStore(dir);
});
afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('reindexMemories', () => {
  it('re-embeds in batches, reports progress up to the total, and includes memories captured mid-run', async () => {
    await store.insert(await memories(['use pnpm', 'bigint cents', 'retry on E_CONNRESET', 'tabs not spaces', 'blue green deploys']), oldEmbedder.id);
    const progress: Array<[number, number]> = [];
    let capture: Promise<unknown> | null = null;
    const result = await reindexMemories({
      store, embedder: newEmbedder, batchSize: 2,
      // The capture took the store lock first: the swap waits for it, as the real lock makes it.
      withStoreLock: async (fn) => {
        await capture;
        return fn();
      },
      onProgress: (done, total) => {
        progress.push([done, total]);
        // A capture lands while the re-embed runs: still written with the old embedder.
        if (done === 2 && capture === null) capture = memories(['captured meanwhile']).then((m) => store.insert(m, oldEmbedder.id));
      },
    });
    expect(result).toEqual({ status: 'reindexed', from: 'hash:384', to: 'hash:48', rows: 6, embedded: 6, resumed: 0 });
    expect(progress[0]).toEqual([0, 5]);
    expect(progress.at(-1)).toEqual([6, 6]);
    expect(await store.embedderInfo()).toEqual({ embedder: 'hash:48', dimension: 48 });
    const [query] = await newEmbedder.embed(['captured meanwhile']);
    expect(await contentsOf(store, await store.search(query!, { limit: 1 }))).toEqual(['captured meanwhile']);
  });

  it('leaves a store that already uses the embedder alone unless forced', async () => {
    await store.insert(await memories(['use pnpm']), oldEmbedder.id);
    expect(await reindexMemories({ store, embedder: oldEmbedder, withStoreLock: noLock, batchSize: 10 })).toEqual({ status: 'current', embedder: 'hash:384' });
    expect(await reindexMemories({ store, embedder: oldEmbedder, withStoreLock: noLock, batchSize: 10, force: true })).toMatchObject({ status: 'reindexed', rows: 1 });
  });
});
