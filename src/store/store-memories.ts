/** Embed a batch of candidates, dedupe them against the store and each other, and write the result. */
import { RecallError } from '../core/errors.js';
import { contentKey } from '../core/memory.js';
import type { CandidateMemory, MemoryOrigin, MemoryRecord } from '../core/memory.js';
import type { Clock, Embedder, MemoryStore, NewMemory } from '../core/ports.js';
import { planDedupe } from './dedupe.js';
import type { DedupeLookup } from './dedupe.js';

/** How many stored neighbours to fetch per candidate; the decision uses the closest. */
const NEIGHBORS = 3;

export interface StoreMemoriesDeps {
  embedder: Embedder;
  store: MemoryStore;
  /** Cosine similarity at or above which two memories count as the same. */
  threshold: number;
  clock: Clock;
}

export interface StoreMemoriesResult {
  inserted: MemoryRecord[];
  reinforced: Array<{ id: string; similarity: number }>;
  skipped: number;
}

export async function storeMemories(
  candidates: readonly CandidateMemory[],
  origin: MemoryOrigin,
  deps: StoreMemoriesDeps,
): Promise<StoreMemoriesResult> {
  const { embedder, store, threshold, clock } = deps;
  if (candidates.length === 0) return { inserted: [], reinforced: [], skipped: 0 };

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
  const items: NewMemory[] = candidates.map((c, i) => ({ ...c, ...origin, vector: vectors[i] as Float32Array }));

  const lookups: DedupeLookup[] = await Promise.all(
    items.map(async (item) => ({
      exact: await store.findByContentKey(origin.namespace, contentKey(item.content)),
      nearest: await store.nearest(origin.namespace, item.vector, NEIGHBORS),
    })),
  );
  const decisions = planDedupe(items, lookups, threshold);

  const fresh = items.filter((_, i) => decisions[i]?.action === 'insert');
  // One insert call for the whole batch: one new table version.
  const inserted = fresh.length === 0 ? [] : await store.insert(fresh, embedder.id);

  const reinforced: StoreMemoriesResult['reinforced'] = [];
  const seenAt = clock.now();
  for (const decision of decisions) {
    if (decision.action !== 'reinforce') continue;
    await store.reinforce(decision.matchId, seenAt);
    reinforced.push({ id: decision.matchId, similarity: decision.similarity });
  }
  const skipped = decisions.filter((d) => d.action === 'skip').length;
  return { inserted, reinforced, skipped };
}
