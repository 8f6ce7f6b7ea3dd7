import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig, normalizeOllamaHost } from '../../../src/config/load-config.js';
import { isRecallError } from '../../../src/core/errors.js';
import { useTempDirs } from '../../support/temp-dir.js';

const tempDir = useTempDirs();

describe('loadConfig', () => {
  it('fills every default when there is no config file', () => {
    const { config, paths } = loadConfig({ RECALL_HOME: tempDir() });
    expect(config.ollama.host).toBe('http://127.0.0.1:11434');
    expect(config.ollama.llmModel).toBeUndefined();
    expect(config.embedder.id).toBe('transformers:Xenova/all-MiniLM-L6-v2');
    expect(config.dedupe.threshold).toBe(0.85);
    expect(config.transcript).toEqual({ maxChars: 12_000, minChars: 100, maxLineBytes: 16 * 1024 * 1024 });
    expect(paths.configFile).toMatch(/config\.json$/);
  });

  it('lets environment variables override the file', () => {
    const home = tempDir();
    writeFileSync(join(home, 'config.json'), JSON.stringify({ ollama: { llmModel: 'from-file' }, dedupe: { threshold: 0.9 } }));
    const { config } = loadConfig({ RECALL_HOME: home, RECALL_OLLAMA_LLM_MODEL: 'from-env', RECALL_ALLOW_MODEL_DOWNLOAD: 'false' });
    expect(config.ollama.llmModel).toBe('from-env');
    expect(config.dedupe.threshold).toBe(0.9);
    expect(config.embedder.allowDownload).toBe(false);
  });

  it('names the key and the problem when a value is invalid', () => {
    const home = tempDir();
    writeFileSync(join(home, 'config.json'), JSON.stringify({ dedupe: { threshold: 3 } }));
    expect(() => loadConfig({ RECALL_HOME: home })).toThrowError(/dedupe\.threshold/);
    try {
      loadConfig({ RECALL_HOME: home, RECALL_EMBEDDER: 'word2vec' });
    } catch (err) {
      expect(isRecallError(err, 'CONFIG_INVALID')).toBe(true);
      expect(String(err)).toMatch(/embedder\.id/);
      expect(String(err)).toMatch(/dedupe\.threshold/);
    }
  });

  it('refuses a config file that is not JSON', () => {
    const home = tempDir();
    writeFileSync(join(home, 'config.json'), '{ nope');
    expect(() => loadConfig({ RECALL_HOME: home })).toThrowError(/not valid JSON/);
  });

  it('returns a frozen config', () => {
    const { config } = loadConfig({ RECALL_HOME: tempDir() });
    expect(Object.isFrozen(config.ollama)).toBe(true);
  });
});

describe('normalizeOllamaHost', () => {
  // As Ollama's own client (ollama-js formatHost) reads OLLAMA_HOST.
  it.each([
    ['localhost:11434', 'http://localhost:11434'],
    ['gpu-box', 'http://gpu-box:11434'],
    ['0.0.0.0', 'http://127.0.0.1:11434'],
    [':8080', 'http://127.0.0.1:8080'],
    ['[::1]', 'http://[::1]:11434'],
    ['http://127.0.0.1:11434/', 'http://127.0.0.1:11434'],
    ['http://gpu-box', 'http://gpu-box'],
    ['HTTP://gpu-box:80/', 'http://gpu-box'],
    ['https://ollama.local', 'https://ollama.local'],
    ['https://proxy.local/ollama/', 'https://proxy.local/ollama'],
  ])('turns %s into %s', (input, expected) => {
    expect(normalizeOllamaHost(input)).toBe(expected);
  });

  it.each(['ftp://host', 'file:///tmp/sock', 'http://x y', ''])('refuses %j', (input) => {
    expect(() => normalizeOllamaHost(input)).toThrow();
  });
});

describe('loadConfig with an ollama.host that is not an http(s) URL', () => {
  it('names the key and where the value came from, as a config error', () => {
    const home = tempDir();
    expect(() => loadConfig({ RECALL_HOME: home, OLLAMA_HOST: 'http://x y' })).toThrow(/ollama\.host \(from env OLLAMA_HOST\): "http:\/\/x y" is not an http/);
    writeFileSync(join(home, 'config.json'), JSON.stringify({ ollama: { host: 'ftp://box' } }));
    expect(() => loadConfig({ RECALL_HOME: home })).toThrow(
      expect.objectContaining({ code: 'CONFIG_INVALID', message: expect.stringContaining(`in ${join(home, 'config.json')}`) }),
    );
  });
});
