/**
 * Authority in the store's decisions: a memory may replace only memories of equal or lower authority
 * (core/memory.ts authorityOf). One that would replace a higher one is stored as a proposed change:
 * held for review (`recall review`: "wants to replace <id>"), the rule it would replace staying current
 * until the user approves. Pure.
 */
import { authorityOf } from '../core/memory.js';
import type { MemoryRecord } from '../core/memory.js';
import type { Neighbor, NewMemory } from '../core/ports.js';
import type { DedupeDecision, DedupeLookup } from './dedupe.js';
import { QUARANTINED } from './screen-memory.js';

type Sourced = Pick<MemoryRecord, 'provenance' | 'source'>;

/** Whether `next` may replace `old`; an old memory not known here is left alone. */
export function mayReplace(next: Sourced, old: Sourced | undefined): boolean {
  return old !== undefined && authorityOf(next) >= authorityOf(old);
}

/**
 * The stored memories a new one is judged against, held ones (quarantined, proposed) left out unless the
 * new one is held as well and of no higher authority: a held memory never makes a memory that would be
 * current, or that outranks it, a "duplicate" to drop (the user's rule equal to a held attacker's rule
 * is stored, current).
 */
export function withoutHeldBelow(candidate: Sourced & { status?: MemoryRecord['status'] }, lookup: DedupeLookup): DedupeLookup {
  const counts = (r: MemoryRecord) => r.status == null || (candidate.status != null && authorityOf(candidate) <= authorityOf(r));
  const exact = lookup.exact !== null && counts(lookup.exact) ? lookup.exact : null;
  const nearest = lookup.nearest.filter((n) => counts(n.record));
  return exact === lookup.exact && nearest.length === lookup.nearest.length ? lookup : { ...lookup, exact, nearest };
}

export function recordOf(nearest: readonly Neighbor[], id: string): MemoryRecord | undefined {
  return nearest.find((n) => n.record.id === id)?.record;
}

/**
 * The memory as it is inserted: when it would replace a stored memory of higher authority, or the screen
 * holds it, it is held with the ids it wants to replace (all of them: approving applies the change whole).
 */
export function withProposal(item: NewMemory, decision: DedupeDecision | undefined, nearest: readonly Neighbor[]): NewMemory {
  if (decision?.action !== 'insert' || decision.supersedes.length === 0) return item;
  const outranked = decision.supersedes.some((id) => !mayReplace(item, recordOf(nearest, id)));
  if (!outranked && item.status !== QUARANTINED) return item;
  return { ...item, status: QUARANTINED, wantsToReplace: decision.supersedes };
}

/** The stored id each decision ends at: the inserted memory, the reinforced one, or a batch duplicate's. */
export function idsOf(decisions: readonly DedupeDecision[], inserted: readonly MemoryRecord[]): Array<string | undefined> {
  const ids: Array<string | undefined> = [];
  let next = 0;
  for (const decision of decisions) {
    if (decision.action === 'insert') ids.push(inserted[next++]?.id);
    else if (decision.action === 'reinforce') ids.push(decision.matchId);
    else if (decision.reason === 'same-session') ids.push(decision.matchId);
    else ids.push(ids[decision.matchIndex]);
  }
  return ids;
}
