import { describe, expect, it } from 'vitest';
import { listConfigEntries } from '../../../src/config/config-entries.js';
import { evaluateConfig, findUnknownKeys, fixForProblem, formatConfigProblems, salvageConfig } from '../../../src/config/evaluate-config.js';

describe('evaluateConfig', () => {
  it('applies environment overrides over the file and normalises the host', () => {
    const result = evaluateConfig({ ollama: { host: 'localhost:1234', llmModel: 'file-model' } }, { RECALL_OLLAMA_LLM_MODEL: 'env-model' });
    expect(result.ok && result.config.ollama).toMatchObject({ host: 'http://localhost:1234', llmModel: 'env-model' });
  });

  it('names a bad key from the file with the file as its source', () => {
    const result = evaluateConfig({ dedupe: { threshold: 3 } }, {});
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems).toEqual([expect.objectContaining({ key: 'dedupe.threshold', source: 'file' })]);
    expect(formatConfigProblems(result.problems, '/h/config.json')).toMatch(/^dedupe\.threshold \(in \/h\/config\.json\): Too big/);
    expect(fixForProblem(result.problems[0]!, '/h/config.json')).toBe('recall config set dedupe.threshold <value>, or recall config unset dedupe.threshold');
  });

  it('names the environment variable when the bad value came from it', () => {
    const result = evaluateConfig({}, { RECALL_DEDUPE_THRESHOLD: 'lots' });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems[0]).toMatchObject({ key: 'dedupe.threshold', source: 'env', envVar: 'RECALL_DEDUPE_THRESHOLD' });
    expect(fixForProblem(result.problems[0]!, '/h/config.json')).toBe('change or unset RECALL_DEDUPE_THRESHOLD');
  });

  it('reports a host that is not a URL under ollama.host', () => {
    const result = evaluateConfig({ ollama: { host: 'http://exa mple' } }, {});
    expect(!result.ok && result.problems[0]?.key).toBe('ollama.host');
  });
});

describe('salvageConfig', () => {
  it('drops bad values, keeps good ones and reports what it dropped', () => {
    const { config, problems } = salvageConfig({ dedupe: { threshold: 3 }, search: { limit: 4 }, embedder: { id: 'word2vec' } }, {});
    expect(config.dedupe.threshold).toBe(0.85);
    expect(config.embedder.id).toBe('transformers:Xenova/all-MiniLM-L6-v2');
    expect(config.search.limit).toBe(4);
    expect(problems.map((p) => p.key).sort()).toEqual(['dedupe.threshold', 'embedder.id']);
  });

  it('replaces a group that is not an object with its defaults', () => {
    const { config, problems } = salvageConfig({ ollama: 'nope' }, {});
    expect(config.ollama.host).toBe('http://127.0.0.1:11434');
    expect(problems[0]?.key).toBe('ollama');
  });
});

describe('findUnknownKeys', () => {
  it('lists keys the schema does not know, at any depth', () => {
    expect(findUnknownKeys({ ollama: { modle: 'x', host: 'h' }, colour: 'red', dedupe: { threshold: 0.9 } })).toEqual(['ollama.modle', 'colour']);
  });

  it('treats a value where a known leaf belongs as known', () => {
    expect(findUnknownKeys({ search: { limit: 'ten' } })).toEqual([]);
  });
});

describe('listConfigEntries', () => {
  it('says whether each value comes from the default, the file or a named environment variable', () => {
    const file = { dedupe: { threshold: 0.9 }, ollama: { llmModel: 'from-file' } };
    const env = { RECALL_OLLAMA_LLM_MODEL: 'from-env' };
    const result = evaluateConfig(file, env);
    if (!result.ok) throw new Error('expected a valid config');
    const entries = new Map(listConfigEntries(result.config, file, env).map((e) => [e.key, e]));
    expect(entries.get('dedupe.threshold')).toMatchObject({ value: 0.9, source: 'file' });
    expect(entries.get('ollama.llmModel')).toMatchObject({ value: 'from-env', source: 'env', envVar: 'RECALL_OLLAMA_LLM_MODEL' });
    expect(entries.get('search.limit')).toMatchObject({ value: 10, source: 'default', defaultValue: 10 });
    expect(entries.get('search.limit')?.description).toMatch(/\S/);
  });
});
