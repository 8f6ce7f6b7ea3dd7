/**
 * The order in which the renderer spends its budget: which entries are kept whole, how far each typed message
 * may be cut, the tier and rank of every way of showing an entry, and which short runs of minor entries are
 * left out so that the markers around them merge. Pure.
 */
import { length } from './render-pieces.js';
import type { Variants } from './render-pieces.js';
import type { SessionEntry } from './session-events.js';
import { LIMITS } from './transcript-limits.js';

/**
 * The room for what is kept whole: between these shares of the budget, as much as the other typed messages
 * (at their shortest cut) and a reserve for outcomes and the summary leave. The conclusions get this part of
 * it, the user's last message and last instruction the rest.
 */
const WHOLE_MIN_SHARE = 0.2;
const WHOLE_MAX_SHARE = 0.55;
const RESERVED_SHARE = 0.2;
const CONCLUSION_PART = 0.55;

/** A step raises one entry to a variant; steps are tried by tier, then rank. */
export interface Step {
  entry: number;
  level: number;
  tier: number;
  rank: number;
  /** Taken only next to an entry already shown (minor entries: routine passes, plain tool calls, narration). */
  contiguous?: boolean;
}

/** The cap per typed message that lets them all take at most this share of the budget. */
const USER_SHARE = 0.5;

export function userCap(entries: readonly SessionEntry[], maxChars: number): number {
  const users = entries.filter((e): e is SessionEntry & { kind: 'user' } => e.kind === 'user');
  const cost = (cap: number) => users.reduce((n, u) => n + Math.min(u.text.length, cap) + 16, 0);
  let cap: number = LIMITS.userText;
  while (cap > LIMITS.userTextFloor && cost(cap) > maxChars * USER_SHARE) cap = Math.max(LIMITS.userTextFloor, Math.floor(cap * 0.8));
  return cap;
}

/**
 * The entries kept whole: the assistant's last words, its last words after a turn with tool calls (its report
 * of the work, when a short answer follows it), and the user's last message and last one that was not a
 * question or an agreement (their last instruction).
 */
export function wholeEntries(entries: readonly SessionEntry[], maxChars: number): Map<number, number> {
  const whole = new Map<number, number>();
  const said = entries.flatMap((e, i) => (e.kind === 'assistant' && e.narration !== true ? [i] : []));
  const lastSaid = said[said.length - 1];
  // The last turn with tool calls in it: its report is the longest of its last few texts.
  const lastTool = entries.map((e) => e.kind).lastIndexOf('tool');
  const turnEnd = entries.findIndex((e, i) => i > lastTool && e.kind === 'user');
  const turnStart = entries.slice(0, Math.max(0, lastTool)).map((e) => e.kind).lastIndexOf('user');
  const inTurn = said.filter((i) => i < (turnEnd === -1 ? entries.length : turnEnd) && i > turnStart);
  const report = inTurn.slice(-3).reduce<number | undefined>((best, i) => (best === undefined || textLength(entries[i]) > textLength(entries[best]) ? i : best), undefined);
  const users = entries.flatMap((e, i) => (e.kind === 'user' ? [i] : []));
  const lastUser = users[users.length - 1];
  const lastInstruction = [...users].reverse().find((i) => {
    const entry = entries[i] as SessionEntry & { kind: 'user' };
    return entry.stance !== 'asks' && entry.stance !== 'agrees';
  });
  // What is kept whole never crowds out the other typed messages: they keep room for their shortest cut.
  const typedFloor = users.reduce((n, i) => n + Math.min(LIMITS.userTextFloor, (entries[i] as SessionEntry & { kind: 'user' }).text.length) + 16, 0);
  const room = Math.max(WHOLE_MIN_SHARE * maxChars, Math.min(WHOLE_MAX_SHARE * maxChars, maxChars * (1 - RESERVED_SHARE) - typedFloor));
  const conclusions = room * CONCLUSION_PART;
  if (lastSaid !== undefined) whole.set(lastSaid, Math.floor(report === undefined || report === lastSaid ? conclusions : conclusions * 0.35));
  if (report !== undefined && report !== lastSaid) whole.set(report, Math.floor(conclusions * 0.65));
  const instructions = [...new Set([lastUser, lastInstruction])].filter((i) => i !== undefined);
  for (const i of instructions) whole.set(i, Math.min(LIMITS.userTextWhole, Math.floor((room * (1 - CONCLUSION_PART)) / instructions.length)));
  return whole;
}

function textLength(entry: SessionEntry | undefined): number {
  return entry?.kind === 'assistant' ? entry.text.length : 0;
}

const WRONG = new Set(['failed', 'reverted', 'abandoned', 'rejected']);

export function planRender(entries: readonly SessionEntry[], variants: readonly Variants[], whole: ReadonlyMap<number, number>, routine: ReadonlySet<number>): Step[] {
  const lastCompaction = entries.map((e) => e.kind).lastIndexOf('compaction');
  const firstUser = entries.findIndex((e) => e.kind === 'user');
  const steps: Step[] = [];
  entries.forEach((entry, i) => {
    const newest = -i;
    // Before the last compaction its summary tells the assistant's and the tools' part.
    const late = i > lastCompaction ? 0 : 6;
    const top = (variants[i]?.length ?? 1) - 1;
    if (whole.has(i)) {
      steps.push({ entry: i, level: top, tier: entry.kind === 'assistant' ? -2 : -1, rank: newest });
      return;
    }
    switch (entry.kind) {
      case 'user':
        steps.push({ entry: i, level: 0, tier: 0, rank: i === firstUser ? -Infinity : newest });
        if (top > 0) steps.push({ entry: i, level: top, tier: 3, rank: newest });
        break;
      case 'interrupt':
        steps.push({ entry: i, level: 0, tier: 0, rank: newest });
        break;
      case 'compaction':
        steps.push({ entry: i, level: 0, tier: 1, rank: -Infinity });
        break;
      case 'assistant':
        if (entry.narration === true) steps.push({ entry: i, level: 0, tier: 4 + late, rank: newest, contiguous: true });
        else if (entry.verdict !== undefined) steps.push({ entry: i, level: 0, tier: 1, rank: newest });
        else steps.push({ entry: i, level: 0, tier: (entry.final ? 1.5 : 3) + late, rank: newest });
        if (entry.final && top > 0) steps.push({ entry: i, level: top, tier: 3 + late, rank: newest });
        break;
      case 'subagent':
        steps.push({ entry: i, level: 0, tier: 2 + late, rank: newest });
        break;
      case 'tool':
        // What went wrong is told in one short line, so it comes early even before a compaction.
        if (entry.outcome !== undefined) steps.push({ entry: i, level: 0, tier: WRONG.has(entry.outcome) ? 1 : 2 + late, rank: newest, contiguous: routine.has(i) });
        steps.push({ entry: i, level: top, tier: 4 + late, rank: newest, contiguous: entry.outcome === undefined || routine.has(i) });
        if (top > 0) steps.push({ entry: i, level: 0, tier: 5 + late, rank: newest, contiguous: entry.outcome === undefined || routine.has(i) });
        break;
    }
  });
  return orderSteps(steps);
}

const byTierThenRank = (a: Step, b: Step): number => a.tier - b.tier || a.rank - b.rank;

/**
 * `steps` (pushed in entry order) sorted by tier, then rank: without comparing each pair. An entry has at most one
 * step per tier and ranks are its negated index, so within a tier the steps are the reverse of their order, after
 * the one ranked first of all (-Infinity). With two such steps in a tier (two compactions) their order is the sort's
 * own, so the sort is left to do it.
 */
function orderSteps(steps: Step[]): Step[] {
  const tiers = new Map<number, { first: Step[]; rest: Step[] }>();
  for (const step of steps) {
    let tier = tiers.get(step.tier);
    if (tier === undefined) tiers.set(step.tier, (tier = { first: [], rest: [] }));
    if (step.rank === -Infinity) {
      if (tier.first.length > 0) return steps.sort(byTierThenRank);
      tier.first.push(step);
    } else tier.rest.push(step);
  }
  const ordered: Step[] = [];
  for (const key of [...tiers.keys()].sort((a, b) => a - b)) {
    const { first, rest } = tiers.get(key) as { first: Step[]; rest: Step[] };
    ordered.push(...first);
    for (let k = rest.length - 1; k >= 0; k -= 1) ordered.push(rest[k] as Step);
  }
  return ordered;
}

/**
 * Test and build runs that passed as the ones before them did: worth a line when there is room, not worth a
 * marker on each side. A pass that follows a failure (the fix confirmed) and the session's last pass are not
 * routine.
 */
export function routineEntries(entries: readonly SessionEntry[]): Set<number> {
  const routine = new Set<number>();
  let previous: string | undefined;
  let lastPass = -1;
  entries.forEach((entry, i) => {
    if (entry.kind !== 'tool' || entry.outcome === undefined) return;
    if (entry.outcome === 'passed') {
      if (previous === 'passed') routine.add(i);
      lastPass = i;
    }
    previous = entry.outcome;
  });
  routine.delete(lastPass);
  return routine;
}

/** An entry not worth a marker on each side of it: a tool call that came to nothing told, a routine pass, or narration. */
function isMinor(entry: SessionEntry, routine: boolean): boolean {
  if (entry.kind === 'tool') return entry.outcome === undefined || routine;
  return entry.kind === 'assistant' && !entry.final && entry.verdict === undefined;
}

/** Most characters a run of minor entries between two left-out runs may hold and still be left out with them. */
const MINOR_RUN_CHARS = 240;

/**
 * Leaves out short runs of minor entries that sit between left-out events, so their markers merge into one;
 * returns the entries it left out.
 */
export function mergeGaps(entries: readonly SessionEntry[], variants: readonly Variants[], levels: number[], routine: ReadonlySet<number>): number[] {
  const out: number[] = [];
  let i = 0;
  while (i < entries.length) {
    if ((levels[i] as number) === -1) {
      i += 1;
      continue;
    }
    let end = i;
    while (end < entries.length && (levels[end] as number) !== -1) end += 1;
    const run = entries.slice(i, end);
    const chars = run.reduce((n, _e, k) => n + length(variants[i + k]?.[levels[i + k] as number] ?? []), 0);
    if (i > 0 && end < entries.length && run.every((e, k) => isMinor(e, routine.has(i + k))) && chars <= MINOR_RUN_CHARS) {
      for (let k = i; k < end; k += 1) {
        levels[k] = -1;
        out.push(k);
      }
    }
    i = end;
  }
  return out;
}
