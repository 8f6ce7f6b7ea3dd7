/**
 * Whether two rules are about the same subject, from what each says it is about (rule-subject.ts)
 * and all the words of the other. Pure.
 *
 * - `other`: each names a subject the other does not mention ("the users table" / "the orders table",
 *   "in dev" / "in prod"), or each puts a different modifier on the same head ("payments timeout" /
 *   "search timeout"): two rules about two things.
 * - `narrower`: only one of them names a subject the other lacks: a refinement, an exception or a
 *   wider rule ("use feature flags" / "... for schema changes"); not a replacement by shape alone.
 * - `unsure`: only a bare name in a scope phrase differs ("in Go" / "in Rust"): a subject or a choice.
 * - `same`: no subject word of either is missing from the other.
 */
import type { RuleReading } from './read-rule.js';
import type { RuleSubject } from './rule-subject.js';

export type SubjectMatch = 'same' | 'other' | 'narrower' | 'unsure';

interface Read {
  rule: RuleReading;
  subject: RuleSubject;
}

export function compareSubjects(a: Read, b: Read): SubjectMatch {
  const aWords = new Set(a.rule.words);
  const bWords = new Set(b.rule.words);
  const onlyA = [...a.subject.certain].filter((w) => !bWords.has(w));
  const onlyB = [...b.subject.certain].filter((w) => !aWords.has(w));
  if ((onlyA.length > 0 && onlyB.length > 0) || modifierSwapped(a, b, aWords, bWords)) return 'other';
  if (onlyA.length > 0 || onlyB.length > 0) return 'narrower';
  const unsureA = [...a.subject.uncertain].some((w) => !bWords.has(w));
  const unsureB = [...b.subject.uncertain].some((w) => !aWords.has(w));
  return unsureA || unsureB ? 'unsure' : 'same';
}

/** A word only one rule has and a word only the other has, each modifying the same head word. */
function modifierSwapped(a: Read, b: Read, aWords: ReadonlySet<string>, bWords: ReadonlySet<string>): boolean {
  const headsB = new Set<string>();
  for (const [modifier, head] of b.subject.heads) if (!aWords.has(modifier) && head !== modifier) headsB.add(head);
  for (const [modifier, head] of a.subject.heads) {
    if (!bWords.has(modifier) && headsB.has(head) && aWords.has(head) && bWords.has(head)) return true;
  }
  return false;
}
