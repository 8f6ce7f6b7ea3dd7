/**
 * One RegExp for many literals: the literals folded into a trie (`s(?:ecret|alt|ession)|p(?:ass|wd)`), so
 * the regex engine branches on each character once instead of trying every literal at every position.
 * Searching this one pattern over a text replaces a loop of `includes` per literal.
 */
import { compileLiterals, findLiterals } from './literal-automaton.js';

const SPECIAL = /[.*+?^${}()|[\]\\/]/g;

interface TrieNode {
  end: boolean;
  next: Map<string, TrieNode>;
}

/** `longest`: where a literal ends at a node that longer ones go through, the longest one there matches. */
function emit(node: TrieNode, longest: boolean): string {
  const branches = [...node.next].map(([c, child]) => c.replace(SPECIAL, '\\$&') + emit(child, longest));
  if (branches.length === 0) return '';
  const group = branches.length === 1 ? (branches[0] as string) : `(?:${branches.join('|')})`;
  if (!node.end) return group;
  // Else the literal that ends here is enough: the longer ones through this node add no new match start.
  return longest ? `(?:${group})?` : '';
}

/**
 * The source of a pattern matching any of `literals` (as they are; fold the text and the literals alike).
 * With `longest`, each match is the longest literal at its place, else the shortest.
 */
export function literalsPattern(literals: readonly string[], longest = false): string {
  const root: TrieNode = { end: false, next: new Map() };
  for (const literal of literals) {
    if (literal === '') continue;
    let node = root;
    for (const c of literal) {
      let child = node.next.get(c);
      if (child === undefined) {
        child = { end: false, next: new Map() };
        node.next.set(c, child);
      }
      node = child;
    }
    node.end = true;
  }
  return emit(root, longest);
}

/** Which of a list of literals a text holds, found by one pass of one automaton (literal-automaton.ts). */
export interface LiteralIndex {
  /** The indexes (into the list) of the literals `text` holds. */
  found(text: string): Set<number>;
}

/** Builds the index; with `foldCase` (the default) a literal matches in any case. */
export function literalIndex(literals: readonly string[], foldCase = true): LiteralIndex {
  const automaton = compileLiterals(literals, foldCase);
  return { found: (text) => findLiterals(automaton, text, new Set<number>()) };
}
