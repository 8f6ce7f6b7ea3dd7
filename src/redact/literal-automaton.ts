/**
 * An Aho-Corasick automaton over ASCII literals, compiled to one flat transition table and walked over a
 * text's UTF-16 code units with upper case folded on the fly (A-Z, and the two non-ASCII letters whose
 * lower case is an ASCII one: U+0130 `İ` and U+212A, the Kelvin sign). One table lookup per character,
 * no copy of the text, no allocation: what the prefilter (find-windows.ts) runs over every text before
 * anything else. Written here rather than taken from a package because the scan must fold case without a
 * lower-cased copy and hand each hit to a check at its place (trigger-scan.ts) without building strings.
 */

/** Index of a character class: 0 for every character no literal holds. */
const NO_CLASS = 0;

export interface LiteralAutomaton {
  /** Number of character classes (the table's row width). */
  readonly width: number;
  /** The class of each UTF-16 code unit, upper case folded. */
  readonly classOf: Uint8Array;
  /**
   * `next[row + class]`, where `row` is a state's first entry (`state * width`): the row of the state after
   * reading a character, or its bitwise complement (negative) when a literal ends in that state.
   */
  readonly next: Int32Array;
  /** For each state's row divided by `width`, where the list of literals ending there starts in `ends`, or -1. */
  readonly endsAt: Int32Array;
  /** Lists of literal ids, longest first, each list prefixed by how many ids it holds. */
  readonly ends: Int32Array;
}

const FOLDING = [...Array.from({ length: 26 }, (_, k) => 65 + k), 0x130, 0x212a];

function foldedCode(code: number): number {
  if (code >= 65 && code <= 90) return code + 32;
  if (code === 0x130) return 105; // İ -> i
  if (code === 0x212a) return 107; // Kelvin sign -> k
  return code;
}

/**
 * Builds the automaton for `literals` (ASCII); hits name a literal by its index. With `foldCase` (the
 * default) literals match without regard to case.
 */
export function compileLiterals(input: readonly string[], foldCase = true): LiteralAutomaton {
  const literals = foldCase ? input.map((literal) => literal.toLowerCase()) : input;
  const classOf = new Uint8Array(65536);
  let width = 1;
  for (const literal of literals) {
    for (const c of literal) {
      const code = c.charCodeAt(0);
      if (code > 127) throw new Error(`not an ASCII literal: ${literal}`);
      if (classOf[code] === NO_CLASS) classOf[code] = width++;
    }
  }
  // The only code units whose lower case is another ASCII one: A-Z, U+0130 and U+212A.
  for (const code of foldCase ? FOLDING : []) classOf[code] = classOf[foldedCode(code)] as number;
  // The trie, as rows of `width` children in one flat table (0: none; state 0 is the root).
  const most = literals.reduce((n, literal) => n + literal.length, 1);
  const go = new Int32Array(most * width);
  const outputs: number[][] = [[]];
  literals.forEach((literal, id) => {
    let state = 0;
    for (let i = 0; i < literal.length; i += 1) {
      const at = state * width + (classOf[literal.charCodeAt(i)] as number);
      if (go[at] === 0) {
        go[at] = outputs.length;
        outputs.push([]);
      }
      state = go[at] as number;
    }
    if (literal !== '') (outputs[state] as number[]).push(id);
  });
  const states = outputs.length;
  // Failure links, breadth first; each row then becomes a full transition row (the automaton's DFA form).
  const fail = new Int32Array(states);
  const queue = new Int32Array(states);
  let tail = 0;
  for (let k = 1; k < width; k += 1) if (go[k] !== 0) queue[tail++] = go[k] as number;
  for (let q = 0; q < tail; q += 1) {
    const state = queue[q] as number;
    const row = state * width;
    const failRow = (fail[state] as number) * width;
    go[row] = 0;
    for (let k = 1; k < width; k += 1) {
      const child = go[row + k] as number;
      if (child === 0) {
        go[row + k] = go[failRow + k] as number;
        continue;
      }
      fail[child] = go[failRow + k] as number;
      const inherited = outputs[fail[child] as number] as number[];
      if (inherited.length > 0) (outputs[child] as number[]).push(...inherited);
      queue[tail++] = child;
    }
  }
  const next = new Int32Array(states * width);
  for (let at = 0; at < next.length; at += 1) {
    const target = go[at] as number;
    next[at] = (outputs[target] as number[]).length > 0 ? ~(target * width) : target * width;
  }
  const endsAt = new Int32Array(states).fill(-1);
  const ends: number[] = [];
  outputs.forEach((ids, state) => {
    if (ids.length === 0) return;
    endsAt[state] = ends.length;
    ends.push(ids.length);
    for (const id of ids) ends.push(id);
  });
  return { width, classOf, next, endsAt, ends: Int32Array.from(ends) };
}

/** The ids of the literals `text` holds. */
export function findLiterals(automaton: LiteralAutomaton, text: string, found: Set<number>): Set<number> {
  const { width, classOf, next, endsAt, ends } = automaton;
  let row = 0;
  for (let i = 0; i < text.length; i += 1) {
    row = next[row + (classOf[text.charCodeAt(i)] as number)] as number;
    if (row >= 0) continue;
    row = ~row;
    const list = endsAt[row / width] as number;
    const count = ends[list] as number;
    for (let k = 1; k <= count; k += 1) found.add(ends[list + k] as number);
  }
  return found;
}
