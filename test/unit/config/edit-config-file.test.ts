import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findConfigKey } from '../../../src/config/config-keys.js';
import { assertValidConfigFile, setConfigKey, unsetConfigKey, writeConfigFile } from '../../../src/config/edit-config-file.js';
import { useTempDirs } from '../../support/temp-dir.js';

const tempDir = useTempDirs();

describe('setConfigKey', () => {
  it('returns a copy with the key set and leaves the input alone', () => {
    const before = { dedupe: { threshold: 0.9 } };
    const after = setConfigKey(before, findConfigKey('ollama.llmModel'), 'qwen2.5');
    expect(after).toEqual({ dedupe: { threshold: 0.9 }, ollama: { llmModel: 'qwen2.5' } });
    expect(before).toEqual({ dedupe: { threshold: 0.9 } });
  });

  it('replaces a group that is not an object', () => {
    expect(setConfigKey({ ollama: 'x' }, findConfigKey('ollama.host'), 'h')).toEqual({ ollama: { host: 'h' } });
  });
});

describe('unsetConfigKey', () => {
  it('removes the key and any group it leaves empty', () => {
    const { next, removed } = unsetConfigKey({ ollama: { llmModel: 'm' }, search: { limit: 3 } }, ['ollama', 'llmModel']);
    expect(removed).toBe(true);
    expect(next).toEqual({ search: { limit: 3 } });
  });

  it('keeps the group when other keys remain in it', () => {
    expect(unsetConfigKey({ ollama: { llmModel: 'm', host: 'h' } }, ['ollama', 'llmModel']).next).toEqual({ ollama: { host: 'h' } });
  });

  it('says so when the key was not there', () => {
    expect(unsetConfigKey({ ollama: 'x' }, ['ollama', 'llmModel'])).toEqual({ next: { ollama: 'x' }, removed: false });
  });
});

describe('assertValidConfigFile', () => {
  it('accepts a valid file', () => {
    expect(() => assertValidConfigFile({ dedupe: { threshold: 0.5 } }, '/h/config.json')).not.toThrow();
  });

  it('names the key being set and its problem', () => {
    expect(() => assertValidConfigFile({ dedupe: { threshold: 3 } }, '/h/config.json', 'dedupe.threshold')).toThrowError(/not written: dedupe\.threshold: Too big/);
  });

  it('says which other keys were already wrong in the file', () => {
    expect(() => assertValidConfigFile({ dedupe: { threshold: 3 }, search: { limit: 2 } }, '/h/config.json', 'search.limit')).toThrowError(
      /dedupe\.threshold \(already wrong in \/h\/config\.json\)/,
    );
  });
});

describe('writeConfigFile', () => {
  it('writes pretty JSON with mode 0600, creating the folder', () => {
    const file = join(tempDir(), 'home', 'config.json');
    writeConfigFile(file, { search: { limit: 3 } });
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ search: { limit: 3 } });
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });
});
