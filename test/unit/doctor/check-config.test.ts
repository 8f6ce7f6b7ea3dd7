import { describe, expect, it } from 'vitest';
import { checkConfig, type ConfigProbe } from '../../../src/doctor/check-config.js';

const base: ConfigProbe = { configFile: '/h/config.json', fileExists: true, problems: [], unknownKeys: [], envOverrides: [] };

describe('checkConfig', () => {
  it('passes a valid config and names the overriding environment variables', () => {
    const result = checkConfig({ ...base, envOverrides: ['OLLAMA_HOST'] });
    expect(result).toMatchObject({ status: 'ok', detail: 'valid: /h/config.json; overridden by OLLAMA_HOST' });
  });

  it('passes when there is no config file', () => {
    expect(checkConfig({ ...base, fileExists: false }).detail).toMatch(/defaults \(no config file\)/);
  });

  it('fails a bad key, naming it, the problem and the fix', () => {
    const result = checkConfig({
      ...base,
      problems: [{ key: 'dedupe.threshold', path: ['dedupe', 'threshold'], message: 'Too big: expected number to be <=1', source: 'file' }],
    });
    expect(result.status).toBe('fail');
    expect(result.detail).toMatch(/dedupe\.threshold \(in \/h\/config\.json\): Too big/);
    expect(result.fix).toBe('recall config set dedupe.threshold <value>, or recall config unset dedupe.threshold');
  });

  it('fails a config file that is not JSON with a repair fix', () => {
    const result = checkConfig({ ...base, problems: [{ key: '(file)', path: [], message: '/h/config.json is not valid JSON: Unexpected token', source: 'file' }] });
    expect(result).toMatchObject({ status: 'fail', detail: expect.stringMatching(/^\/h\/config\.json is not valid JSON/) });
    expect(result.fix).toMatch(/repair \/h\/config\.json or delete it/);
  });

  it('warns about keys recall ignores, suggesting the likely one', () => {
    const result = checkConfig({ ...base, unknownKeys: ['ollama.modle'] });
    expect(result.status).toBe('warn');
    expect(result.detail).toMatch(/ollama\.modle \(did you mean ollama\.llmModel\?\)/);
    expect(result.fix).toBe('recall config unset ollama.modle');
  });
});
