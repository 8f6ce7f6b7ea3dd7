/**
 * Where a memory's text came from in the session it was extracted from: what the user typed, what the
 * assistant said, tool output (what the user pasted, and what a command they ran in bash mode printed, count
 * as tool output), or Claude Code's compaction summary; `model` when no
 * part of the session shares enough of its words (the model's own wording or inference). Pure: by the share
 * of the memory's distinct words (three letters or more) found in each kind of text.
 */
import type { Provenance } from '../core/memory.js';
import type { SessionEntry } from './session-events.js';

export type SessionSource = Extract<Provenance, 'user' | 'assistant' | 'tool-output' | 'pasted' | 'summary' | 'model'>;

/** The words each kind of session text holds. */
export type SourceWords = ReadonlyMap<Exclude<SessionSource, 'model'>, Set<string>>;

/** At least this share of the memory's words must come from one kind of text to name it. */
const MIN_SHARE = 0.5;
const STOP = new Set(['the', 'and', 'for', 'not', 'you', 'must', 'should', 'never', 'always', 'use', 'with', 'this', 'that', 'from', 'are', 'all', 'any', 'into', 'when', 'before', 'after']);

const WORD = /[\p{L}\p{N}_./-]{3,}/gu;
/** The same words in ASCII text, where the plain class is faster than the Unicode one. */
const ASCII_WORD = /[a-z0-9_./-]{3,}/g;
/** Anything past tab to tilde (control characters too take the Unicode path, which is right for any text). */
const NON_ASCII = /[^\t-~]/;

/** Adds the words of `text` to `out`. */
function addWords(text: string, out: Set<string>): Set<string> {
  const lower = text.toLowerCase();
  const words = lower.match(NON_ASCII.test(lower) ? WORD : ASCII_WORD) ?? [];
  for (const word of words) if (!STOP.has(word)) out.add(word);
  return out;
}

/**
 * The renderer shows at most 1,200 characters of a message and a few hundred of a tool output, head and
 * tail: the model can only have taken words from those, so longer texts count by their head and tail.
 */
const SEEN_CHARS = 2_000;

function seenPart(text: string): string {
  return text.length <= SEEN_CHARS ? text : `${text.slice(0, SEEN_CHARS / 2)} ${text.slice(-SEEN_CHARS / 2)}`;
}

/** The words each kind of text in the session holds. */
export function sourceWords(entries: readonly SessionEntry[]): Map<Exclude<SessionSource, 'model'>, Set<string>> {
  const by = new Map<Exclude<SessionSource, 'model'>, Set<string>>();
  const add = (kind: Exclude<SessionSource, 'model'>, text: string | undefined): void => {
    if (text === undefined) return;
    let set = by.get(kind);
    if (set === undefined) by.set(kind, (set = new Set<string>()));
    addWords(seenPart(text), set);
  };
  for (const entry of entries) {
    if (entry.kind === 'user') {
      add('user', entry.text);
      // What the user pasted (a log, CI output, a bot's review) is not their words: it ranks as tool output.
      for (const block of entry.pasted) add('tool-output', block.excerpt);
    } else if (entry.kind === 'assistant') add('assistant', entry.text);
    else if (entry.kind === 'tool') add('tool-output', entry.output?.text);
    else if (entry.kind === 'compaction') add('summary', entry.text);
    else if (entry.kind === 'subagent') add('tool-output', `${entry.task} ${entry.result}`);
  }
  return by;
}

/**
 * The kind of text most of the memory's words come from. The user's own words win a tie, then the
 * assistant's, then the summary's: a memory the user also said is the user's.
 */
export function attributeSource(content: string, sources: SourceWords): SessionSource {
  const mine = addWords(content, new Set<string>());
  if (mine.size === 0) return 'model';
  let best: SessionSource = 'model';
  let bestShare = MIN_SHARE - Number.EPSILON;
  for (const kind of ['user', 'assistant', 'summary', 'pasted', 'tool-output'] as const) {
    const set = sources.get(kind);
    if (set === undefined) continue;
    let shared = 0;
    for (const word of mine) if (set.has(word)) shared += 1;
    const share = shared / mine.size;
    if (share > bestShare) [best, bestShare] = [kind, share];
  }
  return best;
}
