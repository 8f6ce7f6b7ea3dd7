/**
 * Runs a rule set kept as data (the vendored gitleaks rules, see data/redaction/): each rule is a
 * pattern, the keywords one of which every match holds, an optional entropy floor for the secret and
 * allowlists. A text is searched once for all keywords, by one automaton that folds case as it reads;
 * only the rules whose keywords it holds are run, and a rule's pattern is compiled the first time
 * it is needed. The secret is the rule's secret
 * group, else its first non-empty group, else the whole match; only the secret is replaced.
 */
import { redactionMarker } from './redact-blocks.js';
import { shannonEntropy } from './shannon-entropy.js';
import { literalIndex } from './combined-pattern.js';

export interface DataAllowlist {
  regexes?: string[];
  /** `secret` (the default) or `match`. */
  regexTarget?: string;
  stopwords?: string[];
}

export interface DataRule {
  id: string;
  regex: string;
  keywords: string[];
  entropy?: number;
  secretGroup?: number;
  allowlists?: DataAllowlist[];
}

export interface RuleSet {
  source: string;
  version: string;
  commit: string;
  license: string;
  converted: string;
  leftOut: Record<string, string>;
  globalAllowlist: { regexes: string[]; stopwords: string[] };
  rules: DataRule[];
}

interface CompiledAllowlist {
  regexes: RegExp[];
  onMatch: boolean;
  stopwords: string[];
}

interface CompiledRule {
  data: DataRule;
  pattern: RegExp;
  allowlists: CompiledAllowlist[];
}

export interface RuleSetRunner {
  redact(text: string): { text: string; count: number };
}

export function compileRuleSet(set: RuleSet): RuleSetRunner {
  /** Every keyword of every rule, lower-cased, with the rule it belongs to. */
  const keywordRule: number[] = [];
  const keywords: string[] = [];
  const always: number[] = [];
  set.rules.forEach((rule, index) => {
    if (rule.keywords.length === 0) always.push(index);
    for (const keyword of rule.keywords) {
      keywords.push(keyword.toLowerCase());
      keywordRule.push(index);
    }
  });
  const index = literalIndex(keywords);
  const compiled: (CompiledRule | undefined)[] = [];
  let globalRegexes: RegExp[] | undefined;
  const globalStopwords = set.globalAllowlist.stopwords;

  function rulesFor(text: string): number[] {
    const hit = new Set<number>(always);
    for (const k of index.found(text)) hit.add(keywordRule[k] as number);
    return [...hit].sort((a, b) => a - b);
  }

  function compile(index: number): CompiledRule {
    const existing = compiled[index];
    if (existing) return existing;
    const data = set.rules[index] as DataRule;
    const rule: CompiledRule = {
      data,
      pattern: new RegExp(data.regex, 'gd'),
      allowlists: (data.allowlists ?? []).map((a) => ({
        regexes: (a.regexes ?? []).map((r) => new RegExp(r)),
        onMatch: a.regexTarget === 'match',
        stopwords: a.stopwords ?? [],
      })),
    };
    compiled[index] = rule;
    return rule;
  }

  function allowed(rule: CompiledRule, secret: string, match: string): boolean {
    globalRegexes ??= set.globalAllowlist.regexes.map((r) => new RegExp(r));
    const lower = secret.toLowerCase();
    if (globalRegexes.some((r) => r.test(secret)) || globalStopwords.some((w) => lower.includes(w))) return true;
    return rule.allowlists.some(
      (a) => a.regexes.some((r) => r.test(a.onMatch ? match : secret)) || a.stopwords.some((w) => lower.includes(w)),
    );
  }

  return {
    redact(text) {
      let out = text;
      let count = 0;
      for (const index of rulesFor(text)) {
        const rule = compile(index);
        const spans: [number, number][] = [];
        rule.pattern.lastIndex = 0;
        for (let m = rule.pattern.exec(out); m !== null; m = rule.pattern.exec(out)) {
          if (m[0] === '') {
            rule.pattern.lastIndex += 1;
            continue;
          }
          const span = secretSpan(m, rule.data.secretGroup);
          const secret = out.slice(span[0], span[1]);
          if (secret.includes('REDACTED:') || secret.trim() === '') continue;
          if (rule.data.entropy !== undefined && shannonEntropy(secret) < rule.data.entropy) continue;
          if (allowed(rule, secret, m[0])) continue;
          spans.push(span);
        }
        if (spans.length === 0) continue;
        let next = '';
        let pos = 0;
        for (const [start, end] of spans) {
          next += out.slice(pos, start) + redactionMarker(rule.data.id);
          pos = end;
        }
        out = next + out.slice(pos);
        count += spans.length;
      }
      return { text: out, count };
    },
  };
}

function secretSpan(m: RegExpExecArray, group: number | undefined): [number, number] {
  const indices = m.indices;
  if (indices !== undefined) {
    if (group !== undefined && indices[group]) return indices[group];
    for (let g = 1; g < indices.length; g += 1) {
      const span = indices[g];
      if (span && span[1] > span[0]) return span;
    }
  }
  return [m.index, m.index + m[0].length];
}
