/** Embed a batch of candidates, dedupe them against the store and each other, and write the result. */
import { RecallError } from '../core/errors.js';
import type { CandidateMemory, MemoryOrigin, MemoryRecord } from '../core/memory.js';
import type { Clock, Embedder, MemoryStore, NewMemory } from '../core/ports.js';
import { decideMemories, lookupMemories, withDecisionDefaults } from './decide-memories.js';
import type { DecisionSettings } from './decide-memories.js';
import { QUARANTINED, screenMemory } from './screen-memory.js';

/** The decision settings (threshold; band, model and log optional, see DecideOptions) and the parts to store with. */
export interface StoreMemoriesDeps extends DecisionSettings {
  embedder: Embedder;
  store: MemoryStore;
  clock: Clock;
}

export interface StoreMemoriesResult {
  inserted: MemoryRecord[];
  reinforced: Array<{ id: string; similarity: number }>;
  /** Stored memories replaced by a new or reinforced one: kept as history, left out of reads. */
  superseded: Array<{ id: string; by: string }>;
  skipped: number;
  /** Inserted memories the write-time screen held back (`recall review`). */
  quarantined: string[];
}

export async function storeMemories(
  candidates: readonly CandidateMemory[],
  origin: MemoryOrigin,
  deps: StoreMemoriesDeps,
): Promise<StoreMemoriesResult> {
  const { embedder, store, clock } = deps;
  if (candidates.length === 0) return { inserted: [], reinforced: [], superseded: [], skipped: 0, quarantined: [] };

  const info = await store.embedderInfo();
  if (info !== null && info.embedder !== embedder.id) {
    throw new RecallError(
      'EMBEDDER_MISMATCH',
      `the memory store was embedded with ${info.embedder} but the configured embedder is ${embedder.id}; ` +
        're-embed the store or switch the embedder back',
    );
  }

  const vectors = await embedder.embed(candidates.map((c) => c.content));
  if (vectors.length !== candidates.length) {
    throw new RecallError('EMBEDDER_UNAVAILABLE', `embedder ${embedder.id} returned ${vectors.length} vectors for ${candidates.length} texts`);
  }
  const dimension = vectors[0]?.length;
  if (info !== null && dimension !== info.dimension) {
    throw new RecallError(
      'EMBEDDER_MISMATCH',
      `embedder ${embedder.id} now makes ${dimension}-dim vectors but the store holds ${info.dimension}-dim ones; re-embed the store`,
    );
  }
  // The write-time screen: instruction-like text (or a global rule an agent wrote) is stored quarantined.
  const items: NewMemory[] = candidates.map((c, i) => ({ ...c, ...origin, status: screenMemory(c.content, origin).status, vector: vectors[i] as Float32Array }));

  const lookups = await lookupMemories(store, items);
  const decisions = await decideMemories(items, lookups, withDecisionDefaults(deps));

  const fresh = items.filter((_, i) => decisions[i]?.action === 'insert');
  // One insert call for the whole batch: one new table version.
  const inserted = fresh.length === 0 ? [] : await store.insert(fresh, embedder.id);

  const reinforced: StoreMemoriesResult['reinforced'] = [];
  const superseded: StoreMemoriesResult['superseded'] = [];
  const seenAt = clock.now();
  let nextInserted = 0;
  for (const [i, decision] of decisions.entries()) {
    if (decision.action === 'skip') continue;
    let by: string;
    if (decision.action === 'insert') {
      by = (inserted[nextInserted++] as MemoryRecord).id;
    } else {
      await store.reinforce(decision.matchId, seenAt);
      reinforced.push({ id: decision.matchId, similarity: decision.similarity });
      by = decision.matchId;
    }
    // A quarantined memory replaces nothing: held back from sessions, it must not hide what it contradicts.
    if (items[i]?.status === QUARANTINED) continue;
    // Superseded after the new memory is stored: a crash in between leaves both current, never neither.
    for (const id of decision.supersedes) {
      await store.supersede(id, by, seenAt);
      superseded.push({ id, by });
    }
  }
  const skipped = decisions.filter((d) => d.action === 'skip').length;
  const quarantined = inserted.filter((r) => r.status === QUARANTINED).map((r) => r.id);
  return { inserted, reinforced, superseded, skipped, quarantined };
}
