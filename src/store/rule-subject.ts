/**
 * What a rule is about, as opposed to what it decides: the words of its subject. Read from the shape
 * of the sentence, not from a list of topics. Pure.
 *
 * - a leading label ("Production: ...", "API: ...");
 * - the noun phrase a statement opens with, up to its verb ("The users table keeps ...", "TypeScript
 *   files are formatted ...");
 * - the phrases that set its scope: in / for / inside / within / across / per / during / outside ...
 *   ("in the api package", "for schema changes", "in dev"); a phrase with a number in it is a value
 *   ("for 30 days"), not a scope;
 * - environment names wherever they stand (development, staging, production...): a closed class of
 *   scope words.
 * A scope phrase that is one bare name ("in Go", "for Python") may be the subject ("4 spaces in Go")
 * or the choice ("write it in Go"): it is read as an uncertain subject word.
 * Besides, each modifier written just before another content word (its head: "payments timeout",
 * "api package"), unless a word that introduces a choice comes before it ("use single quotes"), so a
 * pair can see two different modifiers of the same head.
 */
import { FILLER, NEGATIONS, foldWord, tokenize } from './read-rule.js';

export interface RuleSubject {
  /** Folded words that name what the rule governs. */
  certain: Set<string>;
  /** Folded words that may name the subject or the choice (a bare name in a scope phrase). */
  uncertain: Set<string>;
  /** Folded modifier -> the folded content word it modifies. */
  heads: Map<string, string>;
}

const DETERMINERS = new Set(['the', 'a', 'an', 'all', 'every', 'each', 'our', 'this', 'these', 'those', 'its', 'their', 'any', 'my', 'your']);
/** Prepositions that open a scope: what follows says where or for what the rule holds. */
const SCOPE_PREPOSITIONS = new Set(['in', 'for', 'inside', 'within', 'across', 'per', 'during', 'outside', 'throughout', 'except', 'among']);
/** Words that end a phrase. */
const PHRASE_ENDS = new Set([
  'to', 'with', 'via', 'using', 'from', 'on', 'at', 'by', 'instead', 'rather', 'than', 'before', 'after', 'when', 'unless',
  'because', 'so', 'but', 'if', 'while', 'until', 'over', 'into', 'onto', 'as', 'through', 'against', 'which', 'that', 'where',
  ...SCOPE_PREPOSITIONS,
]);
/** Verbs and modals that end the noun phrase a statement opens with. */
const CLAUSE_VERBS = new Set(['is', 'are', 'was', 'were', 'be', 'must', 'should', 'shall', 'will', 'can', 'may', 'might', 'cannot', 'need', 'needs', 'has', 'have', 'stays', 'stay', 'lives', 'goes', 'gets']);
/** Words that introduce the choice a rule makes: what follows them is the verdict, not the subject. */
const CHOICE_CUES = new Set(['use', 'using', 'uses', 'used', 'with', 'via', 'prefer', 'prefers', 'preferred', 'by', 'choose', 'pick', 'adopt', 'favor', 'favour']);
/** Deployment environments: a closed class of scope words, a subject wherever they stand. */
const ENVIRONMENTS = new Set(['development', 'staging', 'production', 'qa', 'uat', 'preview', 'sandbox', 'canary', 'prod', 'dev', 'stage']);
/** The longest opening noun phrase read as a subject. */
const MAX_LEAD = 5;

export function readSubject(text: string): RuleSubject {
  const subject: RuleSubject = { certain: new Set(), uncertain: new Set(), heads: new Map() };
  const label = /^\s*([\p{L}\p{N}][\p{L}\p{N} _/.-]{0,38}):\s/u.exec(text);
  if (label !== null) for (const t of tokenize(label[1] as string)) addWords(subject.certain, t);
  const body = label === null ? text : text.slice(label[0].length);
  for (const clause of body.split(/[,;:.!?()[\]]+(?:\s|$)|\s[-–—]\s|\n/)) readClause(tokenize(clause), subject);
  return subject;
}

function readClause(raw: readonly string[], subject: RuleSubject): void {
  const lower = raw.map((t) => t.toLowerCase());
  readLead(raw, lower, subject);
  for (let i = 0; i < lower.length; i += 1) {
    const word = lower[i] as string;
    if (ENVIRONMENTS.has(word)) addWords(subject.certain, word);
    if (SCOPE_PREPOSITIONS.has(word) && !(word === 'for' && lower[i - 1] === 'instead')) readScope(raw, lower, i + 1, subject);
    const next = lower[i + 1];
    // A number word ("every two weeks") is a value, not a modifier.
    if (next !== undefined && isNounLike(word) && isNounLike(next) && !hasDigit(foldWord(word).join('')) && opensNoun(lower, i)) {
      const modifier = foldWord(word).at(-1);
      const head = foldWord(next)[0];
      if (modifier !== undefined && head !== undefined) subject.heads.set(modifier, head);
    }
  }
}

/** The noun phrase a statement opens with ("The web app", "TypeScript files"), when the clause is a statement. */
function readLead(raw: readonly string[], lower: readonly string[], subject: RuleSubject): void {
  const first = lower[0];
  if (first === undefined) return;
  const lead: string[] = [];
  if (DETERMINERS.has(first)) {
    for (let i = 1; i < lower.length && lead.length < MAX_LEAD; i += 1) {
      const word = lower[i] as string;
      if (CLAUSE_VERBS.has(word) || NEGATIONS.has(word) || PHRASE_ENDS.has(word) || (FILLER.has(word) && !DETERMINERS.has(word))) break;
      // A word ending in -s after the phrase has a word is its verb ("keeps", "listens"); right after the article it is a plural.
      if (lead.length > 0 && /[^s]s$/.test(word) && word.length > 3 && !/[A-Z]/.test(raw[i] as string)) break;
      if (!DETERMINERS.has(word)) lead.push(raw[i] as string);
    }
  } else {
    const verb = lower.findIndex((w, i) => i > 0 && i <= MAX_LEAD && CLAUSE_VERBS.has(w));
    if (verb <= 0 || lower.slice(0, verb).some((w) => FILLER.has(w) || NEGATIONS.has(w) || PHRASE_ENDS.has(w))) return;
    lead.push(...raw.slice(0, verb));
  }
  // A lead ending at the clause's end is no statement's subject ("The staging bastion host" alone).
  for (const word of lead) addWords(subject.certain, word);
}

/** The scope phrase after a preposition at `from`: certain words, or one bare name as an uncertain one. */
function readScope(raw: readonly string[], lower: readonly string[], from: number, subject: RuleSubject): void {
  const words: string[] = [];
  for (let j = from; j < lower.length; j += 1) {
    const word = lower[j] as string;
    if (PHRASE_ENDS.has(word) || CLAUSE_VERBS.has(word) || NEGATIONS.has(word)) break;
    if (hasDigit(word) || /^(one|two|three|four|five|six|seven|eight|nine|ten|twelve|fifteen|twenty|thirty|sixty|hundred)$/.test(word)) return;
    if (isContent(word)) words.push(raw[j] as string);
  }
  if (words.length === 1 && isName(words[0] as string)) addWords(subject.uncertain, words[0] as string);
  else for (const word of words) addWords(subject.certain, word);
}

/** A word that can stand in a noun phrase: content, no number, no preposition. */
function isNounLike(word: string): boolean {
  return isContent(word) && !hasDigit(word) && !PHRASE_ENDS.has(word);
}

/**
 * Whether the word at `i` can open a modified noun: after an article, a preposition or another noun,
 * not as a clause's first word (an imperative's verb: "print stack traces") nor after a choice cue
 * ("use single quotes": the choice itself).
 */
function opensNoun(lower: readonly string[], i: number): boolean {
  if (i === 0) return false;
  const before = lower[i - 1] as string;
  if (NEGATIONS.has(before) || CLAUSE_VERBS.has(before)) return false;
  if (!DETERMINERS.has(before) && !PHRASE_ENDS.has(before) && !isNounLike(before)) return false;
  return !CHOICE_CUES.has(cueBefore(lower, i));
}

/** The word before position `i`, articles skipped. */
function cueBefore(lower: readonly string[], i: number): string {
  for (let j = i - 1; j >= 0; j -= 1) if (!DETERMINERS.has(lower[j] as string)) return lower[j] as string;
  return '';
}

function isContent(word: string): boolean {
  return !FILLER.has(word) && !NEGATIONS.has(word) && !DETERMINERS.has(word) && !CLAUSE_VERBS.has(word);
}

function hasDigit(word: string): boolean {
  return /\d/.test(word);
}

/** A name as written: capitals past the first letter, digits or symbols, or a capitalised word (Go, Python). */
function isName(word: string): boolean {
  return /^[A-Z]/.test(word) || /[A-Z]/.test(word.slice(1)) || /[@/:+#.]/.test(word);
}

function addWords(into: Set<string>, word: string): void {
  const lower = word.toLowerCase();
  if (FILLER.has(lower) || NEGATIONS.has(lower) || DETERMINERS.has(lower)) return;
  for (const folded of foldWord(lower)) into.add(folded);
}
