/**
 * The phrases a rule qualifies itself with, word by word as written: what a preposition or a conjunction
 * opens ("from the security team", "for schema changes", "under infra/", "and the semver version"),
 * filler nouns kept ("team", "repo"), so
 * that one rule that says who, where or for what is not read as a repeat of one that does not. Pure.
 */
import { NEGATIONS, foldWord, tokenize } from './read-rule.js';

/** Prepositions that open a phrase qualifying a rule: who, where, for what, by what, with what. */
const QUALIFYING = new Set(['from', 'by', 'for', 'in', 'on', 'at', 'with', 'under', 'inside', 'within', 'per', 'except', 'during', 'outside', 'across', 'via', 'through', 'after', 'before', 'until', 'unless', 'when', 'if', 'without', 'between', 'behind', 'beyond', 'near', 'like',
  // A conjunct adds a thing as a phrase does ("tagged with the git SHA and the semver version").
  'and', 'or', 'plus']);
/** Words that end a phrase: another preposition, a conjunction, a verb or modal. */
const ENDS = new Set([...QUALIFYING, 'to', 'but', 'so', 'that', 'which', 'who', 'where', 'than', 'as', 'is', 'are', 'was', 'were', 'be', 'must', 'should', 'will', 'can', 'may', 'need', 'needs', 'of', 'into', 'onto', 'over']);
/** Articles and pronouns: no qualifier of their own ("before they are merged", "before you push"). */
const ARTICLES = new Set(['a', 'an', 'the', 'this', 'that', 'these', 'those', 'our', 'your', 'its', 'their', 'all', 'any', 'every', 'each', 'some', 'it', 'they', 'them', 'we', 'us', 'you', 'i', 'he', 'she', 'one']);

/** Each qualifying phrase as its folded words. */
export function readQualifyingPhrases(text: string): string[][] {
  const phrases: string[][] = [];
  // "at all times" says "always", no qualifier.
  for (const clause of text.replace(/\b(at all times|all the time)\b/gi, ' ').split(/[,;:.!?()[\]]+(?:\s|$)|\s[-–—]\s|\n/)) {
    const lower = tokenize(clause).map((t) => t.toLowerCase());
    for (let i = 0; i < lower.length; i += 1) {
      if (!QUALIFYING.has(lower[i] as string)) continue;
      const words: string[] = [];
      for (let j = i + 1; j < lower.length && !ENDS.has(lower[j] as string); j += 1) {
        const w = lower[j] as string;
        if (!ARTICLES.has(w) && !NEGATIONS.has(w)) words.push(...foldWord(w));
      }
      if (words.length > 0) phrases.push(words);
    }
  }
  return phrases;
}

/** Every word of a text, folded: the words a phrase of the other rule is looked up in. */
export function readAllWords(text: string): Set<string> {
  return new Set(tokenize(text).flatMap((t) => foldWord(t.toLowerCase())));
}

/**
 * A phrase has a word the other rule never says. Another form of a word counts as said: a shared start
 * of five letters (managed / management), or one word the start of the other (cach / cache).
 */
export function saysMoreInPhrase(phrases: readonly string[][], otherWords: ReadonlySet<string>): boolean {
  const sameStem = (w: string, o: string) => (w.length >= 5 && o.length >= 5 && o.slice(0, 5) === w.slice(0, 5)) || (Math.min(w.length, o.length) >= 4 && (o.startsWith(w) || w.startsWith(o)));
  const said = (w: string) => otherWords.has(w) || [...otherWords].some((o) => sameStem(w, o));
  return phrases.some((phrase) => phrase.some((w) => !said(w)));
}
