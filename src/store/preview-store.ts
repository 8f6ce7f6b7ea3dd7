/**
 * What storing a batch of memories would do, without writing anything: how many the store already holds,
 * how many would replace a stored one (a changed decision: the same decision function a capture uses),
 * how many are new. `recall eval` shows it per model.
 */
import type { CandidateMemory } from '../core/memory.js';
import type { Embedder, MemoryStore } from '../core/ports.js';
import type { StoreEffect } from '../extract/compare-models.js';
import { decideMemories, lookupMemories } from './decide-memories.js';
import type { DecideOptions } from './decide-memories.js';

export async function previewStore(
  memories: readonly CandidateMemory[],
  namespace: string,
  deps: { embedder: Embedder; store: MemoryStore; decide: DecideOptions },
): Promise<StoreEffect> {
  if (memories.length === 0) return { duplicates: 0, supersedes: 0, fresh: 0 };
  const vectors = await deps.embedder.embed(memories.map((m) => m.content));
  const items = memories.map((m, i) => ({ content: m.content, vector: vectors[i] as Float32Array, namespace, sessionId: null }));
  const lookups = await lookupMemories(deps.store, items);
  const decisions = await decideMemories(items, lookups, deps.decide);
  const replaces = (d: (typeof decisions)[number]) => d.action !== 'skip' && d.supersedes.length > 0;
  return {
    duplicates: decisions.filter((d) => d.action !== 'insert' && !replaces(d)).length,
    supersedes: decisions.filter(replaces).length,
    fresh: decisions.filter((d) => d.action === 'insert' && !replaces(d)).length,
  };
}
