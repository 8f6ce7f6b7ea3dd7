import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyEnvOverrides } from '../../../src/config/env-overrides.js';
import { loadConfig } from '../../../src/config/load-config.js';
import { readEndlessSettings, settingsFromConfig } from '../../../src/endless/endless-settings.js';

describe('environment overrides', () => {
  it('lays set variables over the file, trimmed, with boolean words read as booleans, and leaves the input alone', () => {
    const file = { ollama: { numCtx: 4096 }, endless: 'not an object' };
    const merged = applyEnvOverrides(file, { RECALL_OLLAMA_NUM_CTX: ' 16384 ', RECALL_ENDLESS_MODE: 'Yes', RECALL_EMBEDDER: '   ', OLLAMA_HOST: 'localhost:1' });
    expect(merged).toEqual({ ollama: { numCtx: '16384', host: 'localhost:1' }, endless: { enabled: true } });
    expect(file).toEqual({ ollama: { numCtx: 4096 }, endless: 'not an object' });
  });

  it('gives the hooks\' fast reader the same Endless and Ollama settings as the CLI\'s config for the same environment', () => {
    const home = mkdtempSync(join(tmpdir(), 'recall-env-'));
    writeFileSync(join(home, 'config.json'), JSON.stringify({ endless: { minChars: 5000, keepRecent: 2 }, ollama: { llmModel: 'file-model' } }));
    const env = {
      RECALL_HOME: home,
      RECALL_ENDLESS_MODE: 'on',
      RECALL_ENDLESS_MIN_CHARS: '6000',
      RECALL_ENDLESS_READ_MIN_CHARS: '20000',
      RECALL_SYNC_TIMEOUT_MS: '1500',
      RECALL_ENDLESS_KEEP_RECENT: '5',
      RECALL_OLLAMA_LLM_MODEL: ' env-model ',
      RECALL_OLLAMA_NUM_CTX: '4096',
      RECALL_OLLAMA_TIMEOUT_MS: '9000',
      OLLAMA_HOST: ':8080',
    };
    const lite = readEndlessSettings(env, home);
    expect(lite.problems).toEqual([]);
    expect(lite.settings).toEqual(settingsFromConfig(loadConfig(env).config));
  });
});
