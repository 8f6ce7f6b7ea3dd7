/**
 * What the text (BM25) side searches for: the question's words without stop words, and without the
 * speaker names that open the memories it found ("Maria: ..."). Pure.
 */
import { STOP_WORDS } from './stop-words.js';

const WORD = /[\p{L}\p{N}_]+/gu;
/** A memory opening with a speaker or agent: one to three words, then a colon ("Maria:", "assistant:", "Dr Chen:"). */
const SPEAKER_PREFIX = /^\s*([\p{L}][\p{L}\p{N}_'.-]*(?: [\p{L}][\p{L}\p{N}_'.-]*){0,2})\s*:\s/u;

/** The words of a query, lower-cased, stop words left out; the whole query's words when every one is a stop word. */
export function queryTerms(query: string): string[] {
  const words = [...query.toLowerCase().matchAll(WORD)].map((m) => m[0]);
  const kept = words.filter((w) => !STOP_WORDS.has(w));
  return kept.length > 0 ? kept : words;
}

/** The lower-cased words of the speaker prefix a memory opens with, or none. */
export function speakerWords(content: string): string[] {
  const name = SPEAKER_PREFIX.exec(content)?.[1];
  return name === undefined ? [] : [...name.toLowerCase().matchAll(WORD)].map((m) => m[0]);
}

/**
 * The terms left once the words that are speaker prefixes of these memories are taken out, or null
 * when none of the terms is one (or nothing would be left): a question naming a speaker would
 * otherwise find every line that speaker said, the shortest first.
 */
export function withoutSpeakers(terms: readonly string[], contents: Iterable<string>): string[] | null {
  const speakers = new Set<string>();
  for (const content of contents) for (const word of speakerWords(content)) speakers.add(word);
  const kept = terms.filter((t) => !speakers.has(t));
  return kept.length === terms.length || kept.length === 0 ? null : kept;
}
