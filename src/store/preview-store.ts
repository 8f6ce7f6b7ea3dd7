/**
 * What storing a batch of memories would do, without writing anything: how many the store already holds,
 * how many would replace a stored one, how many are new. `recall eval` shows it per model.
 */
import { contentKey } from '../core/memory.js';
import type { CandidateMemory } from '../core/memory.js';
import type { Embedder, MemoryStore } from '../core/ports.js';
import type { StoreEffect } from '../extract/compare-models.js';
import { planDedupe } from './dedupe.js';

/** How many stored neighbours to look at per memory, as a capture does. */
const NEIGHBORS = 3;

export async function previewStore(
  memories: readonly CandidateMemory[],
  namespace: string,
  deps: { embedder: Embedder; store: MemoryStore; threshold: number },
): Promise<StoreEffect> {
  if (memories.length === 0) return { duplicates: 0, supersedes: 0, fresh: 0 };
  const vectors = await deps.embedder.embed(memories.map((m) => m.content));
  const items = memories.map((m, i) => ({ content: m.content, vector: vectors[i] as Float32Array, namespace, sessionId: null }));
  const lookups = await Promise.all(
    items.map(async (item) => ({
      exact: await deps.store.findByContentKey(namespace, contentKey(item.content)),
      nearest: await deps.store.nearest(namespace, item.vector, NEIGHBORS),
    })),
  );
  const decisions = planDedupe(items, lookups, deps.threshold);
  return {
    duplicates: decisions.filter((d) => d.action !== 'insert').length,
    supersedes: 0,
    fresh: decisions.filter((d) => d.action === 'insert').length,
  };
}
