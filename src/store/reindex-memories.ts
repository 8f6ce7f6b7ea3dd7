/**
 * Re-embeds every memory with the configured embedder. Vectors are staged batch by batch (no lock
 * held, captures keep flowing); a run that stops half-way resumes from what is staged. At the end,
 * under the store lock, memories added meanwhile are embedded too and the staged vectors swapped in
 * at once, so the store's embedder id changes only when every row has its new vector.
 */
import { RecallError } from '../core/errors.js';
import { contentKey } from '../core/memory.js';
import type { Embedder, MemoryStore, StoredMemory } from '../core/ports.js';

export interface ReindexDeps {
  store: MemoryStore;
  embedder: Embedder;
  withStoreLock: <T>(fn: () => Promise<T>) => Promise<T>;
  batchSize: number;
  /** Re-embed even when the store already uses the configured embedder. */
  force?: boolean;
  onProgress?: (done: number, total: number) => void;
}

export type ReindexResult =
  | { status: 'empty' }
  | { status: 'current'; embedder: string }
  | { status: 'reindexed'; from: string; to: string; rows: number; embedded: number; resumed: number };

export async function reindexMemories(deps: ReindexDeps): Promise<ReindexResult> {
  const { store, embedder } = deps;
  const info = await store.embedderInfo();
  if (info === null) return { status: 'empty' };
  if (info.embedder === embedder.id && !deps.force) return { status: 'current', embedder: info.embedder };

  const staged = await store.stagedVectors(embedder.id);
  const total = await store.count({ allVersions: true });
  let done = 0;
  let embedded = 0;
  let resumed = 0;
  deps.onProgress?.(0, total);
  for await (const batch of store.scan({ allVersions: true, batchSize: deps.batchSize })) {
    const todo = batch.filter((m) => staged.get(m.id) !== contentKey(m.content));
    resumed += batch.length - todo.length;
    embedded += await embedAndStage(todo, deps, staged);
    done += batch.length;
    deps.onProgress?.(Math.min(done, total), Math.max(total, done));
  }

  const rows = await deps.withStoreLock(async () => {
    // Captured while we were embedding: few, so one pass under the lock.
    for await (const batch of store.scan({ allVersions: true, batchSize: deps.batchSize })) {
      embedded += await embedAndStage(batch.filter((m) => staged.get(m.id) !== contentKey(m.content)), deps, staged);
    }
    return store.swapInStagedVectors(embedder.id);
  });
  deps.onProgress?.(rows, rows);
  return { status: 'reindexed', from: info.embedder, to: embedder.id, rows, embedded, resumed };
}

async function embedAndStage(memories: readonly StoredMemory[], deps: ReindexDeps, staged: Map<string, string>): Promise<number> {
  if (memories.length === 0) return 0;
  const vectors = await deps.embedder.embed(memories.map((m) => m.content));
  if (vectors.length !== memories.length) {
    throw new RecallError('EMBEDDER_UNAVAILABLE', `embedder ${deps.embedder.id} returned ${vectors.length} vectors for ${memories.length} texts`);
  }
  const items = memories.map((m, i) => ({ id: m.id, contentKey: contentKey(m.content), vector: vectors[i] as Float32Array }));
  await deps.store.stageVectors(deps.embedder.id, items);
  for (const item of items) staged.set(item.id, item.contentKey);
  return items.length;
}
