/**
 * What the session says about each turn after it ran. Every typed message gets the stance it takes
 * (read-stance.ts); a reply that says the work does not work marks the turn it answers FAILED, one that asks to
 * undo it marks it REVERTED (its edits too), and any other correction marks it ABANDONED. An assistant that gives
 * up on an approach after a failure ("that didn't work, let me try a different approach") marks the edits of
 * that attempt ABANDONED. Short lines that only announce the next step are marked as narration. Pure; sets
 * fields on the entries it is given.
 */
import { EDIT_TOOLS } from './mark-outcomes.js';
import { readStance } from './read-stance.js';
import type { SessionEntry, Verdict } from './session-events.js';

type Entry = SessionEntry;
type AssistantEntry = SessionEntry & { kind: 'assistant' };
type ToolEntry = SessionEntry & { kind: 'tool' };

/** The assistant giving up on what it just tried. */
const GIVE_UP = /\b(?:(?:try|use|take) (?:another|a different|a new) (?:approach|way|strategy|tack)|(?:different|another|simpler) approach|(?:that|this|it|the \w+) (?:approach |fix |change )?(?:didn'?t|doesn'?t|won'?t|did not|does not) (?:work|help|fix)|revert(?:ing|ed)? (?:that|this|it|the|my)|roll(?:ing|ed)? (?:it |that |this )?back|undo(?:ing)? (?:that|this|my)|abandon(?:ing)?|giv(?:e|ing) up on|scrap(?:ping)? (?:that|this)|back(?:ing)? out)\b|换(?:一种|个)(?:方法|方式|思路|方案)|这个(?:方法|方案)不行|不行，?(?:换|改)|回滚|撤销|放弃/i;

/** Openings of a line that only announces what comes next. */
const NARRATION = /^(?:now|next|then|first|finally|let me|let's|lets|i'll|i will|i'm going to|i need to|i should|okay|ok|alright|great|good|perfect|excellent|looks good|now let me|让我|现在|接下来|我来|首先|然后|好的|下面|再)/i;
const NARRATION_MAX = 240;

function isNarration(entry: AssistantEntry): boolean {
  const text = entry.text.trim();
  if (entry.final || text.length > NARRATION_MAX || text.includes('\n\n')) return false;
  return NARRATION.test(text) || /[:：]$/.test(text);
}

const isEdit = (entry: Entry): entry is ToolEntry => entry.kind === 'tool' && EDIT_TOOLS.test(entry.name) && !entry.byUser;

function judgeTurn(turn: readonly Entry[], verdict: Verdict, editsToo: boolean): void {
  const conclusion = [...turn].reverse().find((e): e is AssistantEntry => e.kind === 'assistant');
  if (conclusion !== undefined) conclusion.verdict = verdict;
  for (const entry of turn) {
    if (entry.kind !== 'tool') continue;
    if ((editsToo && isEdit(entry) && entry.outcome === undefined) || (conclusion === undefined && entry === turn[turn.length - 1] && entry.outcome === undefined)) {
      entry.outcome = verdict.outcome;
      entry.detail = verdict.detail;
    }
  }
}

/** Edits of an attempt the assistant gave up on: since the turn began or the last run that passed. */
function markGivenUp(turn: readonly Entry[], at: number): void {
  const before = turn.slice(0, at);
  if (!before.some((e) => e.kind === 'tool' && e.outcome === 'failed')) return;
  let from = 0;
  before.forEach((e, i) => {
    if (e.kind === 'tool' && (e.outcome === 'passed' || e.outcome === 'committed')) from = i + 1;
  });
  for (const entry of before.slice(from)) {
    if (isEdit(entry) && entry.outcome === undefined) {
      entry.outcome = 'abandoned';
      entry.detail = 'the assistant gave up on it';
    }
  }
}

export function markVerdicts(entries: Entry[]): void {
  let turnStart = 0;
  entries.forEach((entry, i) => {
    if (entry.kind === 'assistant') {
      if (isNarration(entry)) entry.narration = true;
      if (GIVE_UP.test(entry.text.slice(0, 600))) markGivenUp(entries.slice(turnStart, i), i - turnStart);
      return;
    }
    if (entry.kind === 'interrupt') return;
    if (entry.kind !== 'user') return;
    const previous = entries[i - 1]?.kind;
    const reply = previous === 'assistant' || previous === 'tool' || previous === 'interrupt' || previous === 'subagent';
    const reading = readStance(entry.text, { reply });
    if (reading.stance !== undefined) entry.stance = reading.stance;
    if (reply) {
      if (reading.undo) judgeTurn(entries.slice(turnStart, i), { outcome: 'reverted', detail: 'the user asked to undo it' }, true);
      else if (reading.failed) judgeTurn(entries.slice(turnStart, i), { outcome: 'failed', detail: 'the user said it does not work' }, false);
      else if (reading.stance === 'corrects') judgeTurn(entries.slice(turnStart, i), { outcome: 'abandoned', detail: 'the user corrected it' }, false);
    }
    turnStart = i + 1;
  });
}
