import { describe, expect, it } from 'vitest';
import { findConfigKey, type ConfigKey } from '../../../src/config/config-keys.js';
import { formatConfigValue, parseConfigValue } from '../../../src/config/config-value.js';

function key(kind: ConfigKey['kind'], extra: Partial<ConfigKey> = {}): ConfigKey {
  return { key: `x.${kind}`, path: ['x', kind], kind, optional: false, hasDefault: true, defaultValue: undefined, description: 'd', envVar: undefined, ...extra };
}

describe('parseConfigValue', () => {
  it('reads numbers for number keys, underscores and exponents included', () => {
    expect(parseConfigValue(findConfigKey('dedupe.threshold'), '0.9')).toBe(0.9);
    expect(parseConfigValue(findConfigKey('ollama.timeoutMs'), '180_000')).toBe(180_000);
    expect(parseConfigValue(key('number'), '1e3')).toBe(1000);
  });

  it('rejects text that is not a number for a number key', () => {
    expect(() => parseConfigValue(findConfigKey('ollama.timeoutMs'), 'soon')).toThrowError(/ollama\.timeoutMs expects a number, got "soon"/);
    expect(() => parseConfigValue(key('number'), '')).toThrowError(/expects a number/);
    expect(() => parseConfigValue(key('number'), '12abc')).toThrowError(/expects a number/);
  });

  it('reads true/false/yes/no/on/off/1/0 for boolean keys and rejects anything else', () => {
    const allow = findConfigKey('embedder.allowDownload');
    for (const text of ['true', 'YES', 'on', '1']) expect(parseConfigValue(allow, text)).toBe(true);
    for (const text of ['false', 'No', 'off', '0']) expect(parseConfigValue(allow, text)).toBe(false);
    expect(() => parseConfigValue(allow, 'maybe')).toThrowError(/expects true or false/);
  });

  it('keeps strings as given, even when they look like numbers', () => {
    expect(parseConfigValue(findConfigKey('ollama.llmModel'), '7')).toBe('7');
    expect(parseConfigValue(findConfigKey('ollama.llmModel'), 'llama3.2:3b')).toBe('llama3.2:3b');
  });

  it('accepts only the listed values for enum keys', () => {
    const mode = key('enum', { choices: ['fast', 'slow'] });
    expect(parseConfigValue(mode, 'slow')).toBe('slow');
    expect(() => parseConfigValue(mode, 'medium')).toThrowError(/one of fast, slow/);
  });

  it('reads lists as comma-separated text or a JSON array', () => {
    expect(parseConfigValue(key('list'), 'Bash, Read')).toEqual(['Bash', 'Read']);
    expect(parseConfigValue(key('list'), '["mcp__*"]')).toEqual(['mcp__*']);
    expect(parseConfigValue(key('list'), '')).toEqual([]);
    expect(() => parseConfigValue(key('list'), '[oops')).toThrowError(/expects a list/);
  });
});

describe('formatConfigValue', () => {
  it('shows strings bare, unset values as (not set) and the rest as JSON', () => {
    expect(formatConfigValue('http://h:1')).toBe('http://h:1');
    expect(formatConfigValue(undefined)).toBe('(not set)');
    expect(formatConfigValue(0.85)).toBe('0.85');
    expect(formatConfigValue(['a'])).toBe('["a"]');
  });
});
