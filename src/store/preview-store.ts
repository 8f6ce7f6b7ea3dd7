/**
 * What storing a batch of memories would do, without writing anything: which the store already holds,
 * which would replace stored ones (a changed decision: the same decision function a capture uses), with
 * the text of what they replace, and which are new. `recall eval` shows it per model.
 */
import type { CandidateMemory, MemoryRecord } from '../core/memory.js';
import type { Embedder, MemoryStore } from '../core/ports.js';
import type { MemoryOutcome, StoreEffect, StoredText } from '../extract/compare-models.js';
import { decideMemories, lookupMemories } from './decide-memories.js';
import type { DecideOptions } from './decide-memories.js';

export interface StorePreview extends StoreEffect {
  /** One per memory, in order. */
  outcomes: MemoryOutcome[];
}

export async function previewStore(
  memories: readonly CandidateMemory[],
  namespace: string,
  deps: { embedder: Embedder; store: MemoryStore; decide: DecideOptions },
): Promise<StorePreview> {
  if (memories.length === 0) return { duplicates: 0, supersedes: 0, fresh: 0, outcomes: [] };
  const vectors = await deps.embedder.embed(memories.map((m) => m.content));
  const items = memories.map((m, i) => ({ content: m.content, vector: vectors[i] as Float32Array, namespace, sessionId: null }));
  const lookups = await lookupMemories(deps.store, items);
  const decisions = await decideMemories(items, lookups, deps.decide);
  const known = new Map<string, MemoryRecord>();
  for (const lookup of lookups) {
    if (lookup.exact !== null) known.set(lookup.exact.id, lookup.exact);
    for (const neighbor of lookup.nearest) known.set(neighbor.record.id, neighbor.record);
  }
  const textOf = async (id: string): Promise<StoredText> => {
    const record = known.get(id) ?? (await deps.store.get(id));
    return { id, content: record?.content ?? '' };
  };
  const outcomes: MemoryOutcome[] = [];
  for (const [i, decision] of decisions.entries()) {
    const memory = memories[i] as CandidateMemory;
    const replaces = decision.action === 'skip' ? [] : await Promise.all(decision.supersedes.map(textOf));
    const matchId = decision.action === 'reinforce' || (decision.action === 'skip' && decision.reason === 'same-session') ? decision.matchId : null;
    outcomes.push({
      content: memory.content,
      type: memory.type,
      verdict: replaces.length > 0 ? 'replaces' : decision.action === 'insert' ? 'new' : 'duplicate',
      duplicateOf: matchId === null ? null : await textOf(matchId),
      replaces,
    });
  }
  return {
    duplicates: outcomes.filter((o) => o.verdict === 'duplicate').length,
    supersedes: outcomes.filter((o) => o.verdict === 'replaces').length,
    fresh: outcomes.filter((o) => o.verdict === 'new').length,
    outcomes,
  };
}
