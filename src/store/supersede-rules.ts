/**
 * The deterministic half of the supersede decision: given a stored memory and a new one that is close
 * to it, say whether the new one says the same thing, replaces it (a changed decision), is a different
 * rule, or cannot be told apart by rules (`ambiguous`, for the model). Pure.
 *
 * A new memory replaces an old one when, the rest of the rule being the same:
 * - it names what the old one chose as what it turns away from ("instead of X", "not X", "from X to");
 * - its negation is flipped (MUST against MUST NOT, never, don't, avoid);
 * - a number or version changed;
 * - the one thing it chooses changed (a tool, command, package, or one of a set of exclusive options):
 *   the word that changed is a name (written with capitals, digits or symbols), or follows a word that
 *   introduces a choice (use, with, in, on, to...), or is one of a known pair of opposites.
 * A changed word that is none of these changes what the rule is about: a different rule.
 *
 * Subject first (rule-subject.ts): each rule's subject words (its opening noun phrase, its scope
 * phrases, environments) must all be found in the other rule. When both rules name a subject the other
 * does not mention, or swap the modifier of one head ("payments timeout", "search timeout"), they are
 * about different things: different, whatever else changed. When only one of them narrows or widens
 * the scope, or a bare name in a scope phrase changed, the rules cannot tell a refinement from a
 * change: ambiguous (the model decides, or both are kept).
 */
import { readRule } from './read-rule.js';
import type { RuleReading } from './read-rule.js';
import { compareSubjects } from './compare-subjects.js';
import { readSubject } from './rule-subject.js';
import { readAllWords, readQualifyingPhrases, saysMoreInPhrase } from './qualifying-phrases.js';
import type { RuleSubject } from './rule-subject.js';

export type PairVerdict = 'same' | 'supersede' | 'different' | 'ambiguous';

export interface PairJudgement {
  verdict: PairVerdict;
  /** Which rule decided, for logs and tests. */
  reason: 'identical' | 'rejects-old-choice' | 'negation-flipped' | 'number-changed' | 'choice-replaced' | 'subject-changed' | 'scope-changed' | 'same-words' | 'few-shared-words' | 'unclear';
}

/** A rule read once: its words, its subject, its qualifying phrases and every word it says. */
export interface ReadRule {
  rule: RuleReading;
  subject: RuleSubject;
  phrases: string[][];
  tokens: Set<string>;
}

export function readForJudging(text: string): ReadRule {
  return { rule: readRule(text), subject: readSubject(text), phrases: readQualifyingPhrases(text), tokens: readAllWords(text) };
}

/** Share of the smaller rule's words the two must have in common for a flip or a changed number to mean "the same rule, changed". */
const SAME_RULE_SHARE = 0.6;
/** Share of the larger rule's words a flipped negation needs to be read as the same rule reversed. */
const FLIP_LARGER_SHARE = 0.5;
/** Jaccard overlap of content words at or above which two rules with no conflict say the same thing. */
const SAME_WORDS = 0.6;
/** Below this overlap two rules with no conflict are different rules. */
const FEW_WORDS = 0.3;

/** Words before a slot that mark it as the rule's choice rather than its subject. */
const CHOICE_CUES = new Set(['use', 'using', 'with', 'via', 'in', 'on', 'to', 'into', 'through', 'prefer', 'run', 'by', 'as', 'under', 'at', 'from']);

/** Choice cues that also introduce a place or a target, so the word after them may be the subject. */
const PLACE_CUES = new Set(['in', 'on', 'to', 'into', 'at', 'under', 'run', 'as', 'from']);

/** Exclusive options: replacing one with the other changes the decision. Each group is a set of rivals. */
const RIVALS: ReadonlyArray<readonly string[]> = [
  ['tab', 'space'], ['single', 'double'], ['true', 'false'], ['enable', 'disable'], ['on', 'off'], ['sync', 'async'],
  ['merge', 'rebase', 'squash'], ['camelcase', 'snakecase', 'kebabcase', 'pascalcase'], ['before', 'after'],
  ['allow', 'deny', 'block'], ['public', 'private'], ['strict', 'loose'], ['class', 'function', 'hook'],
  ['monorepo', 'polyrepo'], ['weekly', 'daily', 'monthly', 'nightly'], ['lf', 'crlf'], ['utc', 'local'],
  ['esm', 'commonjs', 'cjs'], ['interface', 'type'], ['default', 'named'], ['relative', 'absolute'],
  ['optimistic', 'pessimistic'], ['inline', 'external'], ['uuid', 'ulid', 'serial'], ['json', 'yaml', 'toml'],
];

export function judgePair(oldText: string, newText: string, similarity: number, threshold: number): PairJudgement {
  return judgeReadings(readForJudging(oldText), readForJudging(newText), similarity, threshold);
}

/** judgePair on rules already read (the SessionStart context compares many pairs). */
export function judgeReadings(old: ReadRule, next: ReadRule, similarity: number, threshold: number): PairJudgement {
  const a = old.rule;
  const b = next.rule;
  if (a.words.join(' ') === b.words.join(' ') && a.negated === b.negated && sameSet(a.rejected, b.rejected)) {
    return { verdict: 'same', reason: 'identical' };
  }
  const subject = compareSubjects(old, next);
  if (subject === 'other') return { verdict: 'different', reason: 'subject-changed' };
  if (subject === 'narrower') return { verdict: 'ambiguous', reason: 'scope-changed' };
  const found = judgeSameSubject(old, next, similarity, threshold);
  // A change or a repeat read where a bare name in a scope phrase differs ("in Makefiles" on one side
  // only, "in Go" / "in Rust"): the rules cannot say which it is.
  if ((found.verdict === 'supersede' || found.verdict === 'same') && subject === 'unsure') return { verdict: 'ambiguous', reason: 'unclear' };
  return found;
}

/** The verdict on two rules about the same subject. */
function judgeSameSubject(old: ReadRule, next: ReadRule, similarity: number, threshold: number): PairJudgement {
  const a = old.rule;
  const b = next.rule;
  if (rejectsChoiceOf(b, a) || rejectsChoiceOf(a, b)) return { verdict: 'supersede', reason: 'rejects-old-choice' };
  // A name made longer ("axios" / "axios-retry", "react" / "react-dom") names another thing, perhaps.
  if (lengthensName(a, b) || lengthensName(b, a)) return { verdict: 'ambiguous', reason: 'unclear' };

  if (a.negated !== b.negated && sharedShare(a, b) >= SAME_RULE_SHARE) {
    // Both ways: a short rule is not the flip of one clause of a long one ("run the tests" against
    // "run the scenario tests inside a container; never drive the desktop browser").
    return wordsShare(a, b, () => true, 'larger') >= FLIP_LARGER_SHARE && !narrows(a, b) ? { verdict: 'supersede', reason: 'negation-flipped' } : { verdict: 'ambiguous', reason: 'unclear' };
  }
  // The other words must match both ways: a rule whose only other words are a few of the old one's
  // ("keep X enabled" against "keep alpha beta gamma enabled") is another rule that has a number in it.
  if (numbersChanged(a, b)) {
    const share = wordsShare(a, b, (w) => !a.numbers.has(w) && !b.numbers.has(w), 'larger');
    // A value changed where one rule also narrows what it is about ("API keys" / "admin API keys"): unclear.
    if ((share >= 0.8 || oneUnitApart(a, b)) && narrows(a, b)) return { verdict: 'ambiguous', reason: 'unclear' };
    if (share >= 0.8 || oneUnitApart(a, b)) return { verdict: 'supersede', reason: 'number-changed' };
    if (share >= SAME_RULE_SHARE) return { verdict: 'ambiguous', reason: 'unclear' };
  }

  if (a.negated === b.negated && rivalsSwapped(a, b)) return { verdict: 'supersede', reason: 'choice-replaced' };
  const slot = singleSubstitution(a, b);
  if (slot !== null) {
    const choice = a.negated === b.negated ? isChoice(slot, a, b) : 'no';
    if (choice === 'yes') return { verdict: 'supersede', reason: 'choice-replaced' };
    if (choice === 'maybe') return { verdict: 'ambiguous', reason: 'unclear' };
    return { verdict: 'different', reason: 'subject-changed' };
  }

  // One rule is the other with more said (a detail, a condition): a refinement, not a repeat.
  if (addsWords(a, b) || addsWords(b, a)) return { verdict: 'ambiguous', reason: 'unclear' };
  const overlap = jaccard(a.words, b.words);
  if (a.negated === b.negated && (overlap >= SAME_WORDS || similarity >= threshold)) {
    // A word only one rule has inside a phrase of its own ("... from the security team") says more:
    // dropping that rule as a repeat would hide what it adds.
    return qualifiesMore(old, next) || qualifiesMore(next, old) ? { verdict: 'ambiguous', reason: 'unclear' } : { verdict: 'same', reason: 'same-words' };
  }
  if (overlap < FEW_WORDS) return { verdict: 'different', reason: 'few-shared-words' };
  return { verdict: 'ambiguous', reason: 'unclear' };
}

/**
 * `next` turns away from something `prev` chose (and chooses something `prev` did not name), or
 * `next` chooses what `prev` turned away from.
 */
function rejectsChoiceOf(next: RuleReading, prev: RuleReading): boolean {
  const prevChosen = new Set(prev.words.filter((w) => !prev.rejected.has(w)));
  const nextChosen = next.words.filter((w) => !next.rejected.has(w));
  const turnsAway = [...next.rejected].some((w) => prevChosen.has(w) && !prev.negated);
  const prevWords = new Set(prev.words);
  const choosesNew = nextChosen.some((w) => !prevWords.has(w));
  if (turnsAway && choosesNew) return true;
  // The old rule turned away from X and the new one chooses X (and no longer turns away from it).
  return [...prev.rejected].some((w) => nextChosen.includes(w) && !next.rejected.has(w) && !next.negated);
}

/** Words a refinement may add to a rule before it is read as more than a rewording. */
const REFINEMENT_WORDS = 2;

/** `longer` says everything `shorter` says and at least REFINEMENT_WORDS more. */
function addsWords(shorter: RuleReading, longer: RuleReading): boolean {
  const words = new Set(longer.words);
  if (!shorter.words.every((w) => words.has(w))) return false;
  const extra = new Set(longer.words.filter((w) => !shorter.words.includes(w)));
  return extra.size >= REFINEMENT_WORDS;
}

/**
 * Besides the numbers, at most one word differs, a unit written next to a number ("twice" -> "4 times"),
 * and at least two are shared. A word next to the number that is part of a longer name ("react" ->
 * "react-dom 18.3.1") or a modifier ("responses" -> "search responses") is not a unit.
 */
function oneUnitApart(a: RuleReading, b: RuleReading): boolean {
  if (a.numbers.size === 0 || b.numbers.size === 0) return false;
  const x = new Set(a.words.filter((w) => !a.numbers.has(w)));
  const y = new Set(b.words.filter((w) => !b.numbers.has(w)));
  const shared = [...x].filter((w) => y.has(w)).length;
  if (shared < 2 || x.size + y.size - 2 * shared > 1) return false;
  return [...x].filter((w) => !y.has(w)).every((w) => isUnitOf(a, w)) && [...y].filter((w) => !x.has(w)).every((w) => isUnitOf(b, w));
}

/** The word stands next to a number and is a word of its own (not a part of a hyphenated or joined name). */
function isUnitOf(r: RuleReading, word: string): boolean {
  const at = r.words.indexOf(word);
  const raw = r.raw[at] ?? '';
  if (/[-_]/.test(raw) || isName(raw)) return false;
  return r.numbers.has(r.words[at - 1] ?? '') || r.numbers.has(r.words[at + 1] ?? '');
}

/**
 * `longer` says something `shorter` does not: a word slipped in between two words that stand side by
 * side in `shorter` ("cache responses" / "cache search responses", "react" / "react-dom"), or a phrase
 * of its own that a preposition opens ("a review from the security team").
 */
function qualifiesMore(shorter: ReadRule, longer: ReadRule): boolean {
  return insertsWord(shorter.rule, longer.rule) || saysMoreInPhrase(longer.phrases, shorter.tokens);
}

/**
 * A word of `longer` that `shorter` lacks, written as one more part of a name `shorter` has ("react" /
 * "react-dom"), or written right between two words that stand side by side in both ("cache responses"
 * / "cache search responses"). A word after a filler or a modal ("are cached", "should stay", "live in")
 * is a verb that rewords the rule, not a qualifier.
 */
/** A word of `longer` that `shorter` lacks is one more part of a name `shorter` has, written whole ("react" / "react-dom"). */
function lengthensName(shorter: RuleReading, longer: RuleReading): boolean {
  return longer.words.some((w, i) => {
    if (shorter.words.includes(w)) return false;
    return [i - 1, i + 1].some((j) => {
      const part = longer.words[j];
      return longer.raw[j] === longer.raw[i] && part !== undefined && shorter.raw.some((r, k) => shorter.words[k] === part && r.toLowerCase() !== (longer.raw[i] as string).toLowerCase());
    });
  });
}

function insertsWord(shorter: RuleReading, longer: RuleReading): boolean {
  const at = (w: string | undefined) => (w === undefined ? -1 : shorter.words.indexOf(w));
  return longer.words.some((w, i) => {
    if (shorter.words.includes(w)) return false;
    if (lengthensName(shorter, longer)) return true;
    const next = at(longer.words[i + 1]);
    if (next === -1 || longer.cues[i + 1] !== null) return false;
    // A modifier right after an article ("run the flaky tests"), or written between two words.
    const modifies = longer.cues[i] === null || longer.articled[i] === true;
    const before = at(longer.words[i - 1]);
    if (i === 0 || before === -1) return longer.articled[i] === true && (next === 0 || shorter.articled[next] === true);
    return modifies && next === before + 1 && (shorter.cues[next] === null || shorter.articled[next] === true);
  });
}

/** One rule names a narrower thing than the other: a modifier slipped in, a longer name (numbers aside). */
function narrows(a: RuleReading, b: RuleReading): boolean {
  const plain = (r: RuleReading): RuleReading => {
    const keep = r.words.map((w) => !r.numbers.has(w));
    const pick = <T>(xs: readonly T[]) => xs.filter((_, i) => keep[i]);
    return { ...r, words: pick(r.words), raw: pick(r.raw), cues: pick(r.cues), articled: pick(r.articled) };
  };
  const x = plain(a);
  const y = plain(b);
  return insertsWord(x, y) || insertsWord(y, x);
}

/**
 * A number or version changed. One rule that keeps every number of the other and adds one more ("S3" /
 * "S3 in eu-west-1", "200 ms" / "200 ms at p99") adds a detail; it changes no value.
 */
function numbersChanged(a: RuleReading, b: RuleReading): boolean {
  if (sameSet(a.numbers, b.numbers) || (a.numbers.size === 0 && b.numbers.size === 0)) return false;
  const keeps = (x: RuleReading, y: RuleReading) => x.numbers.size > 0 && [...x.numbers].every((n) => y.numbers.has(n));
  return !keeps(a, b) && !keeps(b, a);
}

interface Slot {
  /** Index in `a.words` where the changed span starts, and the spans themselves. */
  at: number;
  old: string[];
  next: string[];
  oldRaw: string[];
  nextRaw: string[];
}

/** The one place where the two rules' words differ, when there is exactly one and both sides have words there. */
function singleSubstitution(a: RuleReading, b: RuleReading): Slot | null {
  let start = 0;
  while (start < a.words.length && start < b.words.length && a.words[start] === b.words[start]) start += 1;
  let endA = a.words.length;
  let endB = b.words.length;
  while (endA > start && endB > start && a.words[endA - 1] === b.words[endB - 1]) {
    endA -= 1;
    endB -= 1;
  }
  const old = a.words.slice(start, endA);
  const next = b.words.slice(start, endB);
  const shared = a.words.length - old.length;
  // Words that only moved (a reordered sentence) are no substitution.
  if (old.some((w) => b.words.includes(w)) || next.some((w) => a.words.includes(w))) return null;
  if (old.length === 0 || next.length === 0 || old.length > 2 || next.length > 2 || shared < 1) return null;
  return { at: start, old, next, oldRaw: a.raw.slice(start, endA), nextRaw: b.raw.slice(start, endB) };
}

/**
 * Whether the changed words are what the rule chooses, not what it is about. When two words changed
 * on each side, each must be a name: a name and a plain word changed together ("ESLint for linting"
 * -> "Prettier for formatting") change what the rule is about as well. A plain word after a place
 * word (in, on, to, at...) may be either ("force-push to main" -> "to release"): `maybe`.
 */
function isChoice(slot: Slot, a: RuleReading, b: RuleReading): 'yes' | 'maybe' | 'no' {
  if (slot.old.length > 1 && slot.next.length > 1) return [...slot.oldRaw, ...slot.nextRaw].every(isName) ? 'yes' : 'no';
  if ([...slot.oldRaw, ...slot.nextRaw].some(isName)) return 'yes';
  if (areRivals(slot.old, slot.next)) return 'yes';
  // One word against two, introduced differently ("with tsc" / "the lambdas with esbuild"): the new
  // words say what the rule acts on as well as what it uses.
  if (slot.old.length !== slot.next.length && cueBefore(a, slot.at) !== cueBefore(b, slot.at)) return 'maybe';
  const before = cueBefore(a, slot.at) ?? cueBefore(b, slot.at);
  if (before === null) return 'no';
  if (!PLACE_CUES.has(before)) return 'yes';
  // After a place word, a proper name is a place or product chosen ("on Netlify" -> "on Cloudflare Pages").
  return slot.at > 0 && [...slot.oldRaw, ...slot.nextRaw].some((w) => /^[A-Z]/.test(w)) ? 'yes' : 'maybe';
}

/** The choice cue written just before the slot in the original text, if any. */
function cueBefore(r: RuleReading, at: number): string | null {
  const cue = r.cues[at] ?? null;
  return cue !== null && CHOICE_CUES.has(cue) ? cue : null;
}

/** A name as written: capitals past the first letter, digits, or symbols (PostgreSQL, node20, @scope/pkg, ts-node). */
function isName(word: string): boolean {
  return /[A-Z]/.test(word.slice(1)) || /\d/.test(word) || /[@/:+#.]/.test(word) || (/-/.test(word) && word.length <= 12) || /^[A-Z]{2,}$/.test(word);
}

/** One rule has an option the other does not, and the other has its rival instead. */
function rivalsSwapped(a: RuleReading, b: RuleReading): boolean {
  const onlyA = a.words.filter((w) => !b.words.includes(w));
  const onlyB = b.words.filter((w) => !a.words.includes(w));
  // Only the option changed: anything more and the rule may be about something else as well.
  return onlyA.length > 0 && onlyB.length > 0 && onlyA.length + onlyB.length <= 3 && areRivals(onlyA, onlyB);
}

function areRivals(old: readonly string[], next: readonly string[]): boolean {
  return RIVALS.some((group) => old.some((o) => group.includes(o)) && next.some((n) => group.includes(n) && !old.includes(n)));
}

/** Shared words as a share of the smaller rule's words. */
function sharedShare(a: RuleReading, b: RuleReading): number {
  return wordsShare(a, b, () => true);
}

/** Shared words as a share of the smaller rule's words (or of the larger one's). */
function wordsShare(a: RuleReading, b: RuleReading, keep: (w: string) => boolean, of: 'smaller' | 'larger' = 'smaller'): number {
  const x = new Set(a.words.filter(keep));
  const y = new Set(b.words.filter(keep));
  const size = of === 'smaller' ? Math.min(x.size, y.size) : Math.max(x.size, y.size);
  if (size === 0) return x.size === y.size ? 1 : 0;
  let shared = 0;
  for (const w of x) if (y.has(w)) shared += 1;
  return shared / size;
}

function jaccard(x: readonly string[], y: readonly string[]): number {
  const a = new Set(x);
  const b = new Set(y);
  let shared = 0;
  for (const w of a) if (b.has(w)) shared += 1;
  const union = a.size + b.size - shared;
  return union === 0 ? 1 : shared / union;
}

function sameSet(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  return a.size === b.size && [...a].every((x) => b.has(x));
}
