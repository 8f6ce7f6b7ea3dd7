/** Embed a batch of candidates, dedupe them against the store and each other, and write the result. */
import { RecallError } from '../core/errors.js';
import type { CandidateMemory, MemoryOrigin, MemoryRecord } from '../core/memory.js';
import type { Clock, Embedder, MemoryStore, NewMemory } from '../core/ports.js';
import { decideMemories, lookupMemories, withDecisionDefaults } from './decide-memories.js';
import type { DecisionSettings } from './decide-memories.js';
import { QUARANTINED, screenMemory } from './screen-memory.js';
import { idsOf, mayReplace, recordOf, withProposal, withoutHeldBelow } from './authority.js';

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
  /** Inserted memories held back (`recall review`): by the write-time screen, or as proposed changes. */
  quarantined: string[];
  /** Inserted memories held as proposed changes to memories of higher authority: id -> the ids it would replace. */
  proposed: Array<{ id: string; wantsToReplace: readonly string[] }>;
}

export async function storeMemories(
  candidates: readonly CandidateMemory[],
  origin: MemoryOrigin,
  deps: StoreMemoriesDeps,
): Promise<StoreMemoriesResult> {
  const { embedder, store, clock } = deps;
  if (candidates.length === 0) return { inserted: [], reinforced: [], superseded: [], skipped: 0, quarantined: [], proposed: [] };

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
  const screened: NewMemory[] = candidates.map((c, i) => ({ ...c, ...origin, status: screenMemory(c.content, origin).status, vector: vectors[i] as Float32Array }));

  const lookups = (await lookupMemories(store, screened)).map((lookup, i) => withoutHeldBelow(screened[i] as NewMemory, lookup));
  const decisions = await decideMemories(screened, lookups, withDecisionDefaults(deps));
  // Authority: a memory replaces only memories of equal or lower authority; else it is held as a proposed change.
  const items = screened.map((item, i) => withProposal(item, decisions[i], lookups[i]?.nearest ?? []));

  const fresh = items.filter((_, i) => decisions[i]?.action === 'insert');
  // One insert call for the whole batch: one new table version.
  const inserted = fresh.length === 0 ? [] : await store.insert(fresh, embedder.id);

  const reinforced: StoreMemoriesResult['reinforced'] = [];
  const superseded: StoreMemoriesResult['superseded'] = [];
  const seenAt = clock.now();
  const ids = idsOf(decisions, inserted);
  for (const [i, decision] of decisions.entries()) {
    if (decision.action === 'skip') continue;
    const by = ids[i] as string;
    if (decision.action === 'reinforce') {
      await store.reinforce(decision.matchId, seenAt);
      reinforced.push({ id: decision.matchId, similarity: decision.similarity });
    }
    const item = items[i] as NewMemory;
    // A held memory replaces nothing: held back from sessions, it must not hide what it contradicts.
    if (item.status === QUARANTINED) continue;
    // Superseded after the new memory is stored: a crash in between leaves both current, never neither.
    const replaced = [
      ...decision.supersedes.filter((id) => decision.action === 'insert' || mayReplace(item, recordOf(lookups[i]?.nearest ?? [], id))),
      // Within the batch a later statement wins, unless it has less authority than the earlier one.
      ...(decision.supersedesEarlier ?? []).filter((j) => mayReplace(item, items[j])).map((j) => ids[j]),
    ];
    for (const id of new Set(replaced)) {
      if (id === undefined || id === by) continue;
      await store.supersede(id, by, seenAt);
      superseded.push({ id, by });
    }
  }
  const skipped = decisions.filter((d) => d.action === 'skip').length;
  const quarantined = inserted.filter((r) => r.status === QUARANTINED).map((r) => r.id);
  const proposed = inserted.flatMap((r) => (r.wantsToReplace == null ? [] : [{ id: r.id, wantsToReplace: r.wantsToReplace }]));
  return { inserted, reinforced, superseded, skipped, quarantined, proposed };
}
