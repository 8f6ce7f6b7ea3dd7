import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/load-config.js';
import { ENDLESS_DEFAULTS } from '../../../src/endless/endless-defaults.js';
import { readEndlessEnabled, readEndlessSettings, settingsFromConfig } from '../../../src/endless/endless-settings.js';
import { useTempDirs } from '../../support/temp-dir.js';

const tempDir = useTempDirs();

describe('Endless Mode settings', () => {
  it('is off by default, with the documented defaults', () => {
    const home = tempDir();
    const { settings, problems } = readEndlessSettings({}, home);
    expect(problems).toEqual([]);
    expect(settings).toMatchObject({ enabled: false, minChars: 4000, readMinChars: ENDLESS_DEFAULTS.readMinChars, syncTimeoutMs: 60_000, denylist: [], keepRecent: 3 });
    expect(settings.ollama).toEqual({ host: 'http://127.0.0.1:11434', model: null, numCtx: 8192, timeoutMs: 180_000 });
    expect(readEndlessEnabled({}, home)).toBe(false);
  });

  it('turns on from the environment or from the config file, the environment winning', () => {
    const home = tempDir();
    expect(readEndlessEnabled({ RECALL_ENDLESS_MODE: 'true' }, home)).toBe(true);
    writeFileSync(join(home, 'config.json'), JSON.stringify({ endless: { enabled: true } }));
    expect(readEndlessEnabled({}, home)).toBe(true);
    expect(readEndlessEnabled({ RECALL_ENDLESS_MODE: 'off' }, home)).toBe(false);
  });

  it('reads the same values the zod config loader reads, for the same file and environment', () => {
    const home = tempDir();
    writeFileSync(join(home, 'config.json'), JSON.stringify({ endless: { minChars: 5000, denylist: ['mcp__x__*'], keepRecent: 0, forkMinChars: 1500 }, ollama: { host: 'localhost:4000', llmModel: 'qwen' } }));
    const env = { RECALL_HOME: home, RECALL_ENDLESS_MODE: 'yes', RECALL_SYNC_TIMEOUT_MS: '1500', RECALL_ENDLESS_READ_MIN_CHARS: '9000', RECALL_OLLAMA_NUM_CTX: '4096' };
    const lite = readEndlessSettings(env, home);
    expect(lite.problems).toEqual([]);
    expect(lite.settings).toEqual(settingsFromConfig(loadConfig(env).config));
  });

  it('reports unusable values and uses the defaults for them instead of failing', () => {
    const home = tempDir();
    writeFileSync(join(home, 'config.json'), '{not json');
    const { settings, problems } = readEndlessSettings({ RECALL_ENDLESS_MIN_CHARS: 'lots', RECALL_ENDLESS_MODE: 'maybe' }, home);
    expect(settings.minChars).toBe(4000);
    expect(settings.enabled).toBe(false);
    expect(problems).toEqual([
      'config.json: not a JSON object; using defaults',
      'endless.enabled: ignored "maybe" (want true or false)',
      'endless.minChars: ignored "lots" (want a whole number >= 1)',
    ]);
  });

  it('keeps the deadline below the installed hook timeout', () => {
    const home = tempDir();
    expect(readEndlessSettings({ RECALL_SYNC_TIMEOUT_MS: '200000' }, home).settings.syncTimeoutMs).toBe(ENDLESS_DEFAULTS.maxSyncTimeoutMs);
    expect(() => loadConfig({ RECALL_HOME: home, RECALL_SYNC_TIMEOUT_MS: '200000' })).toThrowError(/endless\.syncTimeoutMs/);
  });

  it('normalises the Ollama host from the environment and from the file', () => {
    const home = tempDir();
    expect(readEndlessSettings({ OLLAMA_HOST: '0.0.0.0' }, home).settings.ollama.host).toBe('http://127.0.0.1:11434');
    writeFileSync(join(home, 'config.json'), JSON.stringify({ ollama: { host: 'localhost:4000/' } }));
    expect(readEndlessSettings({}, home).settings.ollama.host).toBe('http://localhost:4000');
  });

  it('reports a problem for every endless or ollama value the config schema refuses, so a clean reading is one the CLI accepts', () => {
    const refused: Array<[Record<string, unknown>, Record<string, string>]> = [
      [{ endless: { enabled: 'true' } }, {}],
      [{ endless: { minChars: 0 } }, {}],
      [{ endless: { readMinChars: 'lots' } }, {}],
      [{ endless: { syncTimeoutMs: 90_000 } }, {}],
      [{ endless: { keepRecent: -1 } }, {}],
      [{ endless: { forkMinChars: 0 } }, {}],
      [{ endless: { denylist: 'Bash' } }, {}],
      [{ endless: { denylist: ['Bash', ''] } }, {}],
      [{ endless: 5 }, {}],
      [{ ollama: { llmModel: '' } }, {}],
      [{ ollama: { host: 42 } }, {}],
      [{ ollama: { numCtx: 1.5 } }, {}],
      [{}, { RECALL_ENDLESS_KEEP_RECENT: 'x' }],
      [{}, { RECALL_SYNC_TIMEOUT_MS: '100000' }],
      [{}, { OLLAMA_HOST: 'http://[bad' }],
    ];
    for (const [file, env] of refused) {
      const home = tempDir();
      writeFileSync(join(home, 'config.json'), JSON.stringify(file));
      expect(() => loadConfig({ RECALL_HOME: home, ...env }), JSON.stringify(file)).toThrow();
      expect(readEndlessSettings(env, home).problems.length, JSON.stringify({ file, env })).toBeGreaterThan(0);
    }
  });

  it('lets the environment stand in for a bad file value, as the config loader does', () => {
    const home = tempDir();
    writeFileSync(join(home, 'config.json'), JSON.stringify({ endless: { enabled: 'yes' }, ollama: { llmModel: '' } }));
    const env = { RECALL_HOME: home, RECALL_ENDLESS_MODE: 'true', RECALL_OLLAMA_LLM_MODEL: 'qwen' };
    expect(readEndlessSettings(env, home)).toEqual({ settings: settingsFromConfig(loadConfig(env).config), problems: [] });
  });
});
