/**
 * What the supersede rules read of a memory's text: its content words in order (filler, modal and
 * negation words left out, plurals and verb endings folded), whether it forbids what it names, what
 * it rejects by name ("instead of X", "not X", "over X", "from X to"), and its numbers. Pure.
 */

export interface RuleReading {
  /** Content words in order, folded; numbers and names kept whole. */
  words: string[];
  /** Words as written (same order and length as `words`), for telling names from plain words. */
  raw: string[];
  /** Per kept word, the left-out word written just before it (`use`, `with`, `the`...), or null. */
  cues: Array<string | null>;
  /** Per kept word, whether an article or determiner stands just before it ("the flaky tests"). */
  articled: boolean[];
  /** The main clause is negated: never, do not, must not, avoid, no longer... */
  negated: boolean;
  /** Folded words the text turns away from: what follows "instead of", "rather than", ", not", "over", "from ... to". */
  rejected: Set<string>;
  /** Folded words that contain a digit: versions, sizes, ports, durations. */
  numbers: Set<string>;
}

/** Words that carry no rule of their own: articles, pronouns, modal and filler words. */
export const FILLER = new Set([
  'a', 'an', 'the', 'this', 'that', 'these', 'those', 'it', 'its', 'we', 'our', 'you', 'your', 'they', 'their', 'i',
  'is', 'are', 'be', 'been', 'was', 'were', 'am', 'will', 'shall', 'should', 'must', 'may', 'might', 'can', 'could',
  'would', 'always', 'please', 'also', 'now', 'all', 'any', 'every', 'each', 'only', 'just', 'then', 'so', 'and', 'or',
  'of', 'for', 'to', 'in', 'on', 'at', 'by', 'as', 'into', 'onto', 'from', 'with', 'via', 'using', 'use', 'used',
  'prefer', 'preferred', 'make', 'sure', 'ensure', 'here', 'there', 'when', 'which', 'who', 'what', 'do', 'does', 'did',
  'have', 'has', 'had', 'need', 'needs', 'required', 'require', 'requires', 'rule', 'project', 'repo', 'repository',
  'team', 'code', 'codebase', 'our', 'us', 'default', 'instead', 'rather', 'than', 'over', 'going', 'forward',
  'anymore', 'longer', 'more', 'own', 'same', 'if', 'but', 'because', 'since', 'like', 'such', 'very',
  'run', 'runs', 'ran', 'set', 'keep', 'write', 'written', 'get', 'go', 'let', 'lets', 'via', 'through', 'against',
  'again', 'still', 'currently', 'today', 'everything', 'things', 'thing', 'stuff', 'up', 'out', 'about', 'upgraded',
  'upgrade', 'moved', 'move', 'switched', 'switch', 'migrated', 'migrate', 'changed', 'change', 'replaced', 'replace',
  'bumped', 'bump', 'new', 'old', 'latest', 'version', 'versions',
]);

/** Words that negate the clause they stand in. */
export const NEGATIONS = new Set(['not', 'never', 'no', 'dont', 'doesnt', 'mustnt', 'shouldnt', 'cannot', 'cant', 'wont', 'avoid', 'stop', 'forbid', 'forbidden', 'disallow', 'disallowed', 'without', 'nor', 'prohibited', 'banned', 'disable', 'disabled']);

/** Numbers written as words, read as digits. */
const NUMBER_WORDS: Readonly<Record<string, string>> = {
  one: '1', two: '2', three: '3', four: '4', five: '5', six: '6', seven: '7', eight: '8', nine: '9', ten: '10',
  twelve: '12', fifteen: '15', twenty: '20', thirty: '30', sixty: '60', hundred: '100', once: '1', twice: '2',
};

/** Spellings folded to one word, so a paraphrase is not read as a change. */
const SAME_WORD: Readonly<Record<string, string>> = {
  db: 'database', databases: 'database', pr: 'pullrequest', prs: 'pullrequest', config: 'configuration',
  configs: 'configuration', env: 'environment', envs: 'environment', deps: 'dependency', dependencies: 'dependency',
  dep: 'dependency', prod: 'production', dev: 'development', spec: 'test', specs: 'test', tests: 'test',
  testing: 'test', tested: 'test', ci: 'ci', docs: 'documentation', doc: 'documentation', func: 'function',
  fn: 'function', funcs: 'function', functions: 'function', commits: 'commit', committing: 'commit',
  committed: 'commit', pushing: 'push', pushed: 'push', pushes: 'push', deploys: 'deploy', deploying: 'deploy',
  deployed: 'deploy', deployment: 'deploy', deployments: 'deploy', lint: 'lint', linting: 'lint', linter: 'lint',
  linted: 'lint', formatter: 'format', formatting: 'format', formatted: 'format', js: 'javascript', ts: 'typescript',
  k8s: 'kubernetes', pg: 'postgresql', postgres: 'postgresql', secs: 'second', sec: 'second', seconds: 'second',
  mins: 'minute', minutes: 'minute', ms: 'millisecond', milliseconds: 'millisecond', branches: 'branch',
  main: 'main', master: 'master', repo: 'repository', repos: 'repository', repositories: 'repository', directly: 'direct', straight: 'direct', pullrequests: 'pullrequest',
};

/** The words of a text: names like `@scope/pkg`, `node:fs` or `3.11` kept whole, contractions joined. */
const TOKEN = /[\p{L}\p{N}][\p{L}\p{N}'’._@/:+#-]*[\p{L}\p{N}+#]|[\p{L}\p{N}]/gu;

export function readRule(text: string): RuleReading {
  const tokens = tokenize(text);
  const words: string[] = [];
  const raw: string[] = [];
  const cues: Array<string | null> = [];
  const articled: boolean[] = [];
  let article = false;
  let cue: string | null = null;
  const rejected = new Set<string>();
  const numbers = new Set<string>();
  let negated = false;
  const lower = tokens.map((t) => t.toLowerCase());
  for (let i = 0; i < tokens.length; i += 1) {
    const word = lower[i] as string;
    const rejects = rejectionAt(lower, i);
    if (rejects !== null) {
      for (const r of rejects) rejected.add(r);
    } else if (NEGATIONS.has(word) && !(word === 'no' && lower[i - 1] === 'if')) {
      // A negation that turns away from nothing in particular ("never", "do not use") negates the rule;
      // one that negates a negation ("never disable", "must not skip") cancels it.
      negated = !negatesNegation(lower, i);
    }
    if (NEGATIONS.has(word) || (FILLER.has(word) && !isNameAfterCue(tokens, lower, i))) {
      // Articles do not hide the word that introduces a choice: "use the X" keeps `use`.
      if (!/^(a|an|the|this|that|our|your|its|their)$/.test(word)) cue = word;
      article = /^(a|an|the|this|that|these|those|our|your|its|their|all|every|each|any)$/.test(word);
      continue;
    }
    for (const folded of foldWord(word)) {
      words.push(folded);
      raw.push(tokens[i] as string);
      cues.push(cue);
      articled.push(article);
      cue = null;
      article = false;
      if (/\d/.test(folded)) numbers.add(folded);
    }
  }
  return { words, raw, cues, articled, negated, rejected, numbers };
}

/** The negation at `i` follows another one, at most one filler word between ("never disable", "don't ever skip"). */
function negatesNegation(lower: readonly string[], i: number): boolean {
  for (let j = i - 1; j >= Math.max(0, i - 2); j -= 1) {
    const w = lower[j] as string;
    if (NEGATIONS.has(w)) return true;
    if (!FILLER.has(w) && w !== 'ever') return false;
  }
  return false;
}

/** A filler word written as a name where a choice is named ("in Go", "with Go"): kept as a word. */
function isNameAfterCue(tokens: readonly string[], lower: readonly string[], i: number): boolean {
  return i > 0 && /^[A-Z][a-z]/.test(tokens[i] as string) && /^(in|with|to|use|using|of|and|or)$/.test(lower[i - 1] as string);
}

export function tokenize(text: string): string[] {
  const cleaned = text
    .replace(/[`"“”]/g, ' ')
    .replace(/->|→|=>/g, ' to ')
    .replace(/\b(pull|merge)[- ]requests?\b/gi, 'pullrequest')
    .replace(/\bforce[- ]push(es|ed|ing)?\b/gi, 'forcepush');
  return (cleaned.match(TOKEN) ?? []).map((t) => t.replace(/['’]/g, '').replace(/[.:]+$/, ''));
}

/**
 * The words a text turns away from, when the word at `i` opens such a phrase: "instead of X",
 * "rather than X", "over X" (after prefer), ", not X" / "but not X", "from X to Y", "replace X with".
 */
function rejectionAt(words: readonly string[], i: number): string[] | null {
  const w = words[i];
  const next = (from: number) => objectAt(words, from);
  if (w === 'instead' && words[i + 1] === 'of') return next(i + 2);
  if (w === 'rather' && words[i + 1] === 'than') return next(i + 2);
  if (w === 'over' && words.slice(Math.max(0, i - 4), i).some((p) => p === 'prefer' || p === 'preferred' || p === 'favor' || p === 'favour')) return next(i + 1);
  if (w === 'not' && i > 0 && (words[i - 1] === 'but' || words[i - 1] === 'and' || notTurnsAway(words, i))) return next(i + 1);
  if (w === 'from' && words.slice(Math.max(0, i - 6), i).some((p) => /^(switch|switched|move|moved|migrate|migrated|change|changed|upgrade|upgraded|go|went|port|ported)$/.test(p))) return next(i + 1);
  if ((w === 'replace' || w === 'replaced' || w === 'drop' || w === 'dropped' || w === 'deprecated' || w === 'retire' || w === 'retired') && words[i + 1] !== 'with') return next(i + 1);
  // "X is no longer used": what stands before the verb is turned away from.
  if (w === 'no' && words[i + 1] === 'longer' && /^(is|are)$/.test(words[i - 1] ?? '') && i >= 2) return foldWord(words[i - 2] as string);
  if (w === 'no' && words[i + 1] === 'longer') return next(i + 2).filter((x) => x !== 'use');
  return null;
}

/**
 * Whether a bare "not" turns away from what follows ("use pnpm not npm") rather than negating a verb
 * ("do not use", "must not commit", "not allowed").
 */
function notTurnsAway(words: readonly string[], i: number): boolean {
  const before = words[i - 1] ?? '';
  const after = words[i + 1] ?? '';
  return before !== 'do' && before !== 'does' && before !== 'must' && before !== 'should' && before !== 'is' && before !== 'are' &&
    before !== 'can' && before !== 'will' && before !== 'would' && before !== 'could' && !VERB_AFTER_NOT.has(after);
}

const VERB_AFTER_NOT = new Set(['use', 'run', 'commit', 'push', 'merge', 'deploy', 'add', 'write', 'call', 'store', 'put', 'install', 'edit', 'change', 'touch', 'rely', 'import', 'skip', 'disable', 'enable', 'modify', 'log', 'be', 'ever', 'allowed', 'a', 'an', 'the']);

/** The first content word at or after position `from` (folded): the thing a rejection names. */
function objectAt(words: readonly string[], from: number): string[] {
  for (let j = from; j < words.length; j += 1) {
    const w = words[j] as string;
    if (!FILLER.has(w) && !NEGATIONS.has(w)) return foldWord(w);
  }
  return [];
}

/** One word folded: known spellings merged, hyphenated words split, plain plurals and endings cut. */
export function foldWord(word: string): string[] {
  const number = NUMBER_WORDS[word];
  if (number !== undefined) return [number];
  const known = SAME_WORD[word];
  if (known !== undefined) return known.split(' ');
  if (/\d/.test(word) || /[@/:+#.]/.test(word)) return [word.replace(/^v(?=\d)/, '')];
  if (word.includes('-') || word.includes('_')) return word.split(/[-_]+/).filter((p) => p !== '').flatMap(foldWord);
  return [stem(word)];
}

function stem(word: string): string {
  if (word.length <= 4) return word;
  if (word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.endsWith('ing') && word.length > 6) return undouble(word.slice(0, -3));
  if (word.endsWith('ed') && word.length > 5) return undouble(word.slice(0, -2));
  if (word.endsWith('es') && /(ss|sh|ch|x)es$/.test(word)) return word.slice(0, -2);
  if (word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1);
  return word;
}

/** "tagg" (from tagged) -> "tag", "committ" -> "commit"; "ss" and "ll" stay. */
function undouble(word: string): string {
  return /([^aeiousl])\1$/.test(word) ? word.slice(0, -1) : word;
}
