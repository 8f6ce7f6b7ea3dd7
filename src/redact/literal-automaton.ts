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
  for (let code = 0; foldCase && code < 65536; code += 1) {
    const folded = foldedCode(code);
    if (folded !== code) classOf[code] = classOf[folded] as number;
  }
  // The trie, as rows of `width` children (0: none; state 0 is the root).
  const rows: number[][] = [new Array<number>(width).fill(0)];
  const own: number[][] = [[]];
  literals.forEach((literal, id) => {
    let state = 0;
    for (const c of literal) {
      const k = classOf[c.charCodeAt(0)] as number;
      const row = rows[state] as number[];
      if (row[k] === 0) {
        row[k] = rows.length;
        rows.push(new Array<number>(width).fill(0));
        own.push([]);
      }
      state = row[k] as number;
    }
    if (literal !== '') (own[state] as number[]).push(id);
  });
  // Failure links, breadth first; each row then becomes a full transition row (the automaton's DFA form).
  const fail = new Array<number>(rows.length).fill(0);
  const outputs: number[][] = own.map((ids) => [...ids]);
  const queue: number[] = [];
  const root = rows[0] as number[];
  for (let k = 1; k < width; k += 1) if (root[k] !== 0) queue.push(root[k] as number);
  for (let q = 0; q < queue.length; q += 1) {
    const state = queue[q] as number;
    const row = rows[state] as number[];
    const failRow = rows[fail[state] as number] as number[];
    for (let k = 0; k < width; k += 1) {
      const child = row[k] as number;
      if (child === 0 || k === NO_CLASS) {
        row[k] = failRow[k] as number;
        continue;
      }
      fail[child] = failRow[k] as number;
      (outputs[child] as number[]).push(...(outputs[fail[child] as number] as number[]));
      queue.push(child);
    }
  }
  const next = new Int32Array(rows.length * width);
  rows.forEach((row, state) => next.set(row.map((target) => ((outputs[target] as number[]).length > 0 ? ~(target * width) : target * width)), state * width));
  const endsAt = new Int32Array(rows.length).fill(-1);
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
