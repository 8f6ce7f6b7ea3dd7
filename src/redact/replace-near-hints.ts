/**
 * `text.replace(pattern, fn)` for a pattern that is slow to search for but can only match near a
 * cheap hint (a fixed string such as `://`, or a few words). A plain global regex tries the whole
 * pattern at every position of the text; here a fast hint search finds the few places a match can
 * start, and the pattern is tried there only, sticky, in left-to-right order. The result is the
 * same as the plain replace's whenever the hinted pattern keeps its promise (see `HintedPattern`):
 * the same matches, found at the same places, with the same groups.
 */

export interface HintedPattern {
  /** The pattern itself (global), as a plain `replace` would run it. */
  readonly pattern: RegExp;
  /** A global regex that finds, scanning the whole text, an occurrence inside every match of `pattern`. */
  readonly hint: RegExp;
  /** A match that starts at `i` has a hint occurrence starting in `[i, i + reach]`. */
  readonly reach: number;
  /** A cheap necessary condition for a match to start at `i` (false lets the pattern skip `i`). */
  canStart(text: string, i: number): boolean;
  /** The pattern with the sticky flag, tried at one position at a time. */
  readonly sticky: RegExp;
}

/** Builds a `HintedPattern`; `pattern` and `hint` must be global, and `pattern` must never match the empty string. */
export function hintedPattern(fields: Omit<HintedPattern, 'sticky'>): HintedPattern {
  const flags = fields.pattern.flags.replace('g', '');
  return { ...fields, sticky: new RegExp(fields.pattern.source, `${flags}y`) };
}

/** Equals `text.replace(search.pattern, (...m) => replace(m))`, with `replace` given the match array. */
export function replaceNearHints(text: string, search: HintedPattern, replace: (match: RegExpExecArray) => string): string {
  const { hint, sticky, reach } = search;
  let out = '';
  /** End of the last match: text before it is copied or replaced already. */
  let pos = 0;
  /** First start position not tried yet; starts are tried in increasing order, each at most once. */
  let untried = 0;
  hint.lastIndex = 0;
  for (let found = hint.exec(text); found !== null; found = hint.exec(text)) {
    const at = found.index;
    if (found[0] === '') hint.lastIndex += 1;
    if (at < pos) continue; // inside the last match: every start it could stand for is behind us
    for (let i = Math.max(untried, pos, at - reach); i <= at; ) {
      if (!search.canStart(text, i)) {
        i += 1;
        continue;
      }
      sticky.lastIndex = i;
      const match = sticky.exec(text);
      if (match === null || match[0] === '') {
        i += 1;
        continue;
      }
      out += text.slice(pos, i) + replace(match);
      pos = i + match[0].length;
      i = pos;
    }
    untried = Math.max(untried, pos, at + 1);
  }
  return pos === 0 ? text : out + text.slice(pos);
}
