/**
 * Runs a rule set kept as data (the vendored gitleaks rules, see data/redaction/): each rule is a
 * pattern, the keywords one of which every match holds, an optional entropy floor for the secret and
 * allowlists. A text is scanned once for all keywords; only the rules whose keywords it holds are
 * run, and a rule's pattern is compiled the first time it is needed. The secret is the rule's secret
 * group, else its first non-empty group, else the whole match; only the secret is replaced.
 */
import { redactionMarker } from './redact-blocks.js';
import { shannonEntropy } from './shannon-entropy.js';

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

interface KeywordEntry {
  keyword: string;
  rules: number[];
}

export interface RuleSetRunner {
  redact(text: string): { text: string; count: number };
}

const MIN_KEYWORD = 2;

/** Lower-cases an ASCII letter's code; other codes are returned as they are. */
function fold(code: number): number {
  return code >= 65 && code <= 90 ? code + 32 : code;
}

export function compileRuleSet(set: RuleSet): RuleSetRunner {
  /** Keywords by their first two (folded, ASCII) characters: slot `c1 * 128 + c2` of `slots` indexes `entries`. */
  const slots = new Int32Array(128 * 128).fill(-1);
  const entries: KeywordEntry[][] = [];
  const always: number[] = [];
  set.rules.forEach((rule, index) => {
    const keywords = rule.keywords.filter((k) => k.length >= MIN_KEYWORD && k.charCodeAt(0) < 128 && k.charCodeAt(1) < 128);
    if (keywords.length === 0) always.push(index);
    for (const keyword of keywords) {
      const pair = keyword.charCodeAt(0) * 128 + keyword.charCodeAt(1);
      if ((slots[pair] ?? -1) < 0) {
        slots[pair] = entries.length;
        entries.push([]);
      }
      const list = entries[slots[pair] ?? 0] as KeywordEntry[];
      const entry = list.find((e) => e.keyword === keyword);
      if (entry) entry.rules.push(index);
      else list.push({ keyword, rules: [index] });
    }
  });
  const compiled: (CompiledRule | undefined)[] = [];
  let globalRegexes: RegExp[] | undefined;
  const globalStopwords = set.globalAllowlist.stopwords;

  function rulesFor(text: string): number[] {
    const hit = new Set<number>(always);
    const seen = new Set<string>();
    let previous = text.length > 0 ? fold(text.charCodeAt(0)) : 0;
    for (let i = 0; i + 1 < text.length; i += 1) {
      const next = fold(text.charCodeAt(i + 1));
      const first = previous;
      previous = next;
      if (first >= 128 || next >= 128) continue;
      const slot = slots[first * 128 + next] ?? -1;
      if (slot < 0) continue;
      for (const entry of entries[slot] as KeywordEntry[]) {
        if (seen.has(entry.keyword) || !matchesAt(text, i, entry.keyword)) continue;
        seen.add(entry.keyword);
        for (const r of entry.rules) hit.add(r);
      }
    }
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

function matchesAt(text: string, at: number, keyword: string): boolean {
  if (at + keyword.length > text.length) return false;
  for (let k = 2; k < keyword.length; k += 1) if (fold(text.charCodeAt(at + k)) !== keyword.charCodeAt(k)) return false;
  return true;
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
