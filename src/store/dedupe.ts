/**
 * The dedupe decision core: given a batch of embedded candidates and what the store already holds
 * near each one, decide per candidate whether to insert it, reinforce an existing memory, or skip it.
 * Pure: no I/O, the caller does the lookups.
 */
import { cosineSimilarity } from '../core/cosine-similarity.js';
import { contentKey } from '../core/memory.js';
import type { MemoryRecord } from '../core/memory.js';
import type { Neighbor } from '../core/ports.js';

export interface DedupeCandidate {
  content: string;
  vector: Float32Array;
  namespace: string;
  sessionId: string | null;
}

/** What the store holds for one candidate, inside the candidate's namespace. */
export interface DedupeLookup {
  /** The memory with the same content key, if any. */
  exact: MemoryRecord | null;
  /** Nearest stored memories, any order. */
  nearest: readonly Neighbor[];
  /**
   * The stored memories judged to say the same thing as the candidate (decideMemories); when absent,
   * those at or above the threshold in `nearest`.
   */
  same?: readonly Neighbor[];
  /** Ids of stored memories the candidate replaces (a changed decision), judged by decideMemories. */
  supersedes?: readonly string[];
  /**
   * The earlier candidate of the batch judged to say the same (decideMemories), or null for none; when
   * absent, the first earlier one at or above the threshold.
   */
  batchSame?: number | null;
  /** Earlier candidates of the batch this one changes (judged by decideMemories): they become its older versions. */
  batchSupersedes?: readonly number[];
}

export type DedupeDecision =
  /**
   * Stored as new; `supersedes` are the stored memories it replaces (kept as history), `supersedesEarlier`
   * the earlier candidates of the batch it replaces (present only when there are some).
   */
  | { action: 'insert'; supersedes: readonly string[]; supersedesEarlier?: readonly number[] }
  | { action: 'reinforce'; matchId: string; similarity: number; reason: 'exact' | 'similar'; supersedes: readonly string[]; supersedesEarlier?: readonly number[] }
  /** Same text or meaning as an earlier candidate of this batch (`matchIndex`). */
  | { action: 'skip'; reason: 'batch-duplicate'; matchIndex: number }
  /** The match was recorded by this very session: a re-run must not count it again. */
  | { action: 'skip'; reason: 'same-session'; matchId: string };

/**
 * One decision per candidate, in order. Rules, first that applies wins:
 * 1. same text as a stored memory: reinforce it (`exact`);
 * 2. same text as, or judged the same as (see `DedupeLookup.batchSame`), an earlier candidate: skip (`batch-duplicate`);
 * 3. cosine >= threshold with a stored memory (or judged the same, see `DedupeLookup.same`):
 *    reinforce the most similar (`similar`);
 * 4. insert.
 * An insert or a reinforcement carries the stored memories the candidate replaces (`supersedes`).
 * A match recorded by the candidate's own session is skipped (`same-session`) instead of
 * reinforced, and no stored memory is reinforced twice by one batch.
 */
export function planDedupe(
  candidates: readonly DedupeCandidate[],
  lookups: readonly DedupeLookup[],
  threshold: number,
): DedupeDecision[] {
  if (lookups.length !== candidates.length) {
    throw new RangeError(`planDedupe: ${candidates.length} candidates but ${lookups.length} lookups`);
  }
  const keys = candidates.map((c) => contentKey(c.content));
  const decisions: DedupeDecision[] = [];
  /** Stored memory id -> index of the candidate that already claimed it in this batch. */
  const claimed = new Map<string, number>();

  const matchStored = (i: number, record: MemoryRecord, similarity: number, reason: 'exact' | 'similar') => {
    const candidate = candidates[i] as DedupeCandidate;
    if (candidate.sessionId !== null && record.sessionId === candidate.sessionId) {
      return { action: 'skip', reason: 'same-session', matchId: record.id } as const;
    }
    const earlier = claimed.get(record.id);
    if (earlier !== undefined) return { action: 'skip', reason: 'batch-duplicate', matchIndex: earlier } as const;
    claimed.set(record.id, i);
    const supersedes = (lookups[i]?.supersedes ?? []).filter((id) => id !== record.id);
    return { action: 'reinforce', matchId: record.id, similarity, reason, supersedes, ...earlierOf(i) } as const;
  };
  const earlierOf = (i: number) => {
    const earlier = lookups[i]?.batchSupersedes ?? [];
    return earlier.length === 0 ? {} : { supersedesEarlier: earlier };
  };

  candidates.forEach((candidate, i) => {
    const lookup = lookups[i] as DedupeLookup;
    if (lookup.exact !== null) {
      decisions.push(matchStored(i, lookup.exact, 1, 'exact'));
      return;
    }
    const earlier = candidates.findIndex(
      (other, j) =>
        j < i &&
        other.namespace === candidate.namespace &&
        (keys[j] === keys[i] || (lookup.batchSame === undefined ? cosineSimilarity(other.vector, candidate.vector) >= threshold : lookup.batchSame === j)),
    );
    if (earlier !== -1) {
      decisions.push({ action: 'skip', reason: 'batch-duplicate', matchIndex: earlier });
      return;
    }
    const best = mostSimilar(lookup.same ?? lookup.nearest.filter((n) => n.similarity >= threshold));
    if (best !== null) {
      decisions.push(matchStored(i, best.record, best.similarity, 'similar'));
      return;
    }
    decisions.push({ action: 'insert', supersedes: lookup.supersedes ?? [], ...earlierOf(i) });
  });
  return decisions;
}

function mostSimilar(neighbors: readonly Neighbor[]): Neighbor | null {
  let best: Neighbor | null = null;
  for (const n of neighbors) if (best === null || n.similarity > best.similarity) best = n;
  return best;
}
