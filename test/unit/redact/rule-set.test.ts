import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { GITLEAKS_RULES } from '../../../src/redact/gitleaks-rules.generated.js';
import { compileRuleSet, type RuleSet } from '../../../src/redact/rule-set.js';

const json = JSON.parse(readFileSync(new URL('../../../data/redaction/gitleaks-rules.json', import.meta.url), 'utf8')) as RuleSet;

describe('the vendored gitleaks rule set', () => {
  it('is the data file as it is, pinned to a version, with its licence notice', () => {
    expect(GITLEAKS_RULES).toEqual(json);
    expect(json.version).toBe('v8.30.0');
    expect(json.license).toContain('MIT');
    expect(readFileSync(new URL('../../../data/redaction/GITLEAKS-LICENSE', import.meta.url), 'utf8')).toContain('Zachary Rice');
  });

  it('compiles every rule and allowlist as a JavaScript RegExp (no inline flags left)', () => {
    for (const rule of json.rules) {
      expect(() => new RegExp(rule.regex, 'gd'), rule.id).not.toThrow();
      expect(rule.regex, rule.id).not.toMatch(/\(\?[-ims]+[:)]/);
      for (const a of rule.allowlists ?? []) for (const r of a.regexes ?? []) expect(() => new RegExp(r), rule.id).not.toThrow();
    }
  });

  it('replaces only the secret group of a match, keeping the key', () => {
    const runner = compileRuleSet(json);
    const token = 'lin_api_' + 'aB3dE6gH9jK2mN5pQ8sT1vW4yZ7bC0eF3hJ6kL9n';
    const { text, count } = runner.redact(`LINEAR=${token} done`);
    expect(count).toBe(1);
    expect(text).toBe('LINEAR=[REDACTED:linear-api-key] done');
  });

  it('honours a rule allowlist and its entropy floor', () => {
    const runner = compileRuleSet(json);
    expect(runner.redact('aws_access_key_id = AKIAIOSFODNN7EXAMPLE').count).toBe(0); // allowlisted `.+EXAMPLE$`
    expect(runner.redact('twilio SK' + '0'.repeat(32)).count).toBe(0); // entropy 0 < 3
  });

  it('runs a rule only when its keyword is in the text, case-insensitively', () => {
    const token = 'lin_api_' + 'aB3dE6gH9jK2mN5pQ8sT1vW4yZ7bC0eF3hJ6kL9n';
    const runner = compileRuleSet({ ...json, rules: json.rules.filter((r) => r.id === 'linear-api-key').map((r) => ({ ...r, keywords: ['zzkeyword'] })) });
    expect(runner.redact(token).count).toBe(0);
    expect(runner.redact(`ZZKEYWORD ${token}`).count).toBe(1);
  });
});
