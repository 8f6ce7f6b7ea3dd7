/**
 * The one decision every new memory goes through (capture, `recall add`, MCP `memory_store`,
 * `recall import`, and the `recall eval` preview): against the close memories of its namespace, is it
 * the same (reinforce), a changed decision (it supersedes them), or a different memory (insert)?
 * Deterministic rules decide the clear cases; only pairs they cannot tell apart go to the model, and
 * when there is none, or it fails, both are kept (a rule hidden wrongly is the worst error recall can
 * make; a change missed shows both rules, and the user sees the conflict).
 */
import { cosineSimilarity } from '../core/cosine-similarity.js';
import { contentKey } from '../core/memory.js';
import type { Logger } from '../core/log.js';
import type { MemoryStore, Neighbor } from '../core/ports.js';
import { planDedupe } from './dedupe.js';
import type { DedupeCandidate, DedupeDecision, DedupeLookup } from './dedupe.js';
import { judgePair } from './supersede-rules.js';
import type { PairVerdict } from './supersede-rules.js';

/** The config default of dedupe.supersedeBand, for callers without a config. */
export const DEFAULT_BAND = 0.5;

/** How many stored neighbours are looked at per candidate. */
export const NEIGHBORS = 5;

/** Asks the model about one pair the rules could not decide. Throws when the model is down or answers badly. */
export type PairJudge = (oldText: string, newText: string) => Promise<Exclude<PairVerdict, 'ambiguous'>>;

export interface DecideOptions {
  /** Cosine at or above which a memory counts as a duplicate (dedupe.threshold). */
  threshold: number;
  /** Cosine at or above which a stored memory is close enough to be judged at all (dedupe.supersedeBand). */
  band: number;
  /** The model for ambiguous pairs; null when none is configured. */
  judge: PairJudge | null;
  log?: Logger;
}

/** What a caller may leave out of DecideOptions: the band (DEFAULT_BAND), the model (none) and the log. */
export type DecisionSettings = Pick<DecideOptions, 'threshold'> & Partial<Omit<DecideOptions, 'threshold'>>;

export function withDecisionDefaults(settings: DecisionSettings): DecideOptions {
  return {
    threshold: settings.threshold,
    band: settings.band ?? DEFAULT_BAND,
    judge: settings.judge ?? null,
    ...(settings.log === undefined ? {} : { log: settings.log }),
  };
}

/**
 * What the store holds near each candidate: its exact match and its nearest current memories. All at
 * once where the store can (one pass, bounded memory), else one candidate after another: never all
 * searches at once, since each can hold a namespace's vectors.
 */
export async function lookupMemories(store: MemoryStore, candidates: readonly DedupeCandidate[]): Promise<DedupeLookup[]> {
  if (candidates.length === 0) return [];
  if (store.lookupMany !== undefined) {
    return store.lookupMany(candidates.map((c) => ({ namespace: c.namespace, contentKey: contentKey(c.content), vector: c.vector })), NEIGHBORS);
  }
  const lookups: DedupeLookup[] = [];
  for (const c of candidates) {
    lookups.push({ exact: await store.findByContentKey(c.namespace, contentKey(c.content)), nearest: await store.nearest(c.namespace, c.vector, NEIGHBORS) });
  }
  return lookups;
}

/** One decision per candidate, in order (see planDedupe for exact matches, batch duplicates and sessions). */
export async function decideMemories(
  candidates: readonly DedupeCandidate[],
  lookups: readonly DedupeLookup[],
  options: DecideOptions,
): Promise<DedupeDecision[]> {
  const batchOptions = { ...options, judge: options.judge === null ? null : untilItFails(options.judge) };
  const judged: DedupeLookup[] = [];
  for (const [i, candidate] of candidates.entries()) {
    const lookup = lookups[i] as DedupeLookup;
    const batch = await judgeEarlier(candidates, i, batchOptions);
    judged.push(lookup.exact !== null ? { ...lookup, ...batch } : { ...lookup, ...batch, ...(await judgeNeighbors(candidate, lookup.nearest, batchOptions)) });
  }
  return planDedupe(candidates, judged, options.threshold);
}

/**
 * The candidate against the earlier ones of its batch, judged like a stored pair: within one capture a
 * later statement wins ("use Jest" ... "use Vitest": Vitest is current, Jest its older version), and a
 * near one about another subject is no duplicate.
 */
async function judgeEarlier(candidates: readonly DedupeCandidate[], i: number, options: DecideOptions): Promise<{ batchSame: number | null; batchSupersedes: number[] }> {
  const candidate = candidates[i] as DedupeCandidate;
  let batchSame: number | null = null;
  const batchSupersedes: number[] = [];
  for (let j = 0; j < i; j += 1) {
    const other = candidates[j] as DedupeCandidate;
    if (other.namespace !== candidate.namespace) continue;
    const verdict = await classifyPair(other.content, candidate.content, cosineSimilarity(other.vector, candidate.vector), options);
    if (verdict === 'same' && batchSame === null) batchSame = j;
    if (verdict === 'supersede') batchSupersedes.push(j);
  }
  return { batchSame, batchSupersedes };
}

/**
 * The judge for one batch: once it has failed (the model is down, slow or answers garbage), the rest
 * of the batch is not held up asking it again; the threshold decides those pairs.
 */
function untilItFails(judge: PairJudge): PairJudge {
  let failed: unknown = null;
  return async (oldText, newText) => {
    if (failed !== null) throw failed;
    try {
      return await judge(oldText, newText);
    } catch (err) {
      failed = err;
      throw err;
    }
  };
}

async function judgeNeighbors(candidate: DedupeCandidate, nearest: readonly Neighbor[], options: DecideOptions) {
  const same: Neighbor[] = [];
  const supersedes: string[] = [];
  for (const neighbor of nearest) {
    const verdict = await classifyPair(neighbor.record.content, candidate.content, neighbor.similarity, options);
    if (verdict === 'same') same.push(neighbor);
    if (verdict === 'supersede') supersedes.push(neighbor.record.id);
  }
  return { same, supersedes };
}

/** The verdict on one stored memory and a new one: below the band they are different memories, else decidePair. */
export function classifyPair(oldText: string, newText: string, similarity: number, options: DecideOptions): Promise<Exclude<PairVerdict, 'ambiguous'>> {
  return similarity < options.band ? Promise.resolve('different') : decidePair(oldText, newText, similarity, options);
}

/** The verdict on one pair: the rules, then the model for what they leave open, then "different" (keep both). */
export async function decidePair(
  oldText: string,
  newText: string,
  similarity: number,
  options: Pick<DecideOptions, 'threshold' | 'judge' | 'log'>,
): Promise<Exclude<PairVerdict, 'ambiguous'>> {
  const rules = judgePair(oldText, newText, similarity, options.threshold);
  if (rules.verdict !== 'ambiguous') return rules.verdict;
  if (options.judge === null) {
    options.log?.log('debug', 'no model to judge a pair of memories the rules left open; both are kept');
  } else {
    try {
      return await options.judge(oldText, newText);
    } catch (err) {
      options.log?.log('warn', 'the model could not judge a pair of memories; both are kept', {
        error: err instanceof Error ? err.message : String(err),
      });
    }
  }
  return 'different';
}
