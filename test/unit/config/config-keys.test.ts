import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { findConfigKey, getPath, listConfigKeys, suggestConfigKeys } from '../../../src/config/config-keys.js';
import { ENV_OVERRIDES } from '../../../src/config/env-overrides.js';
import { configSchema } from '../../../src/config/schema.js';
import { isRecallError } from '../../../src/core/errors.js';
import { errorOf } from '../../support/error-of.js';

const keys = listConfigKeys();

describe('listConfigKeys', () => {
  it('gives every leaf key of the schema a description and a default, or marks it optional', () => {
    expect(keys.length).toBeGreaterThan(10);
    for (const key of keys) {
      expect(key.description, key.key).toMatch(/\S/);
      expect(key.hasDefault || key.optional, key.key).toBe(true);
    }
  });

  it('finds the keys, types and defaults the schema declares', () => {
    const byKey = new Map(keys.map((k) => [k.key, k]));
    expect(byKey.get('ollama.host')).toMatchObject({ kind: 'string', hasDefault: true, defaultValue: 'http://127.0.0.1:11434', envVar: 'OLLAMA_HOST' });
    expect(byKey.get('ollama.llmModel')).toMatchObject({ kind: 'string', optional: true, hasDefault: false });
    expect(byKey.get('dedupe.threshold')).toMatchObject({ kind: 'number', defaultValue: 0.85, path: ['dedupe', 'threshold'] });
    expect(byKey.get('embedder.allowDownload')).toMatchObject({ kind: 'boolean', defaultValue: true });
    expect(byKey.has('ollama')).toBe(false);
  });

  it('produces defaults equal to what parsing an empty config yields', () => {
    const defaults = configSchema.parse({});
    for (const key of keys.filter((k) => k.hasDefault)) expect(getPath(defaults, key.path), key.key).toEqual(key.defaultValue);
  });

  it('maps every environment override to a key that exists', () => {
    const names = new Set(keys.map((k) => k.key));
    for (const [name, path] of ENV_OVERRIDES) {
      expect(names.has(path.join('.')), name).toBe(true);
      expect(keys.find((k) => k.key === path.join('.'))?.envVar).toBe(name);
    }
  });

  it('reads enums, lists, nested groups and descriptions given inside a default', () => {
    const schema = z.object({
      a: z.object({ mode: z.enum(['fast', 'slow']).default('fast').describe('speed') }).prefault({}),
      tags: z.array(z.string()).default([]).describe('tags'),
      inner: z.string().describe('inner text').default('x'),
    });
    expect(listConfigKeys(schema)).toEqual([
      expect.objectContaining({ key: 'a.mode', kind: 'enum', choices: ['fast', 'slow'], description: 'speed', defaultValue: 'fast' }),
      expect.objectContaining({ key: 'tags', kind: 'list', defaultValue: [] }),
      expect.objectContaining({ key: 'inner', kind: 'string', description: 'inner text' }),
    ]);
  });
});

describe('findConfigKey', () => {
  it('returns the key for an exact dotted path', () => {
    expect(findConfigKey('ollama.llmModel').path).toEqual(['ollama', 'llmModel']);
  });

  it('rejects an unknown key and lists close matches', () => {
    const err = errorOf(() => findConfigKey('ollama.model'));
    expect(isRecallError(err, 'INPUT_INVALID')).toBe(true);
    expect(String(err)).toMatch(/unknown config key "ollama\.model"; did you mean ollama\.llmModel/);
  });

  it('names the keys of a group given instead of a key', () => {
    expect(String(errorOf(() => findConfigKey('dedupe')))).toMatch(/"dedupe" is a group.*dedupe\.threshold/);
  });
});

describe('suggestConfigKeys', () => {
  it('suggests keys a typo away, with the same last segment, or containing the text', () => {
    expect(suggestConfigKeys('dedupe.treshold')).toEqual(['dedupe.threshold']);
    expect(suggestConfigKeys('embeder.id')).toEqual(['embedder.id']);
    expect(suggestConfigKeys('maxChars')).toEqual(expect.arrayContaining(['context.maxChars', 'transcript.maxChars']));
    expect(suggestConfigKeys('timeout')).toContain('ollama.timeoutMs');
  });

  it('suggests nothing for text unlike any key', () => {
    expect(suggestConfigKeys('zzzz')).toEqual([]);
  });
});
