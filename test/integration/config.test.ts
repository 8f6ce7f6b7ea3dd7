import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseEnv, runCli, runOnTerminal } from '../support/cli.js';

let root: string;
let n = 0;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'recall-config-'));
});
afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

/** A fresh RECALL_HOME per test. */
function fresh(extra: Record<string, string> = {}) {
  const home = join(root, `home-${(n += 1)}`);
  return { home, file: join(home, 'config.json'), env: baseEnv({ RECALL_HOME: home, ...extra }) };
}

function cli(args: string[], env: NodeJS.ProcessEnv) {
  return runCli(['config', ...args], { env });
}

describe('recall config', () => {
  it('sets, gets, lists and unsets a key, writing config.json with mode 0600', async () => {
    const { env, file } = fresh();
    const set = await cli(['set', 'ollama.llmModel', 'qwen2.5:3b'], env);
    expect(set.exitCode).toBe(0);
    expect(set.stderr).toBe('');
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ ollama: { llmModel: 'qwen2.5:3b' } });
    expect(statSync(file).mode & 0o777).toBe(0o600);

    expect((await cli(['get', 'ollama.llmModel'], env)).stdout).toBe('qwen2.5:3b\n');

    const list = JSON.parse((await cli(['list', '--json'], env)).stdout) as Array<{ key: string; value: unknown; source: string; description: string }>;
    expect(list.find((e) => e.key === 'ollama.llmModel')).toMatchObject({ value: 'qwen2.5:3b', source: 'file' });
    expect(list.find((e) => e.key === 'dedupe.threshold')).toMatchObject({ value: 0.85, source: 'default' });
    expect(list.every((e) => e.description.length > 0)).toBe(true);

    const unset = await cli(['unset', 'ollama.llmModel'], env);
    expect(unset.exitCode).toBe(0);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({});
    const gone = await cli(['get', 'ollama.llmModel'], env);
    expect(gone.exitCode).toBe(1);
    expect(gone.stdout).toBe('');
  });

  it('stores numbers and booleans as JSON numbers and booleans', async () => {
    const { env, file } = fresh();
    await cli(['set', 'search.limit', '25'], env);
    await cli(['set', 'embedder.allowDownload', 'false'], env);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ search: { limit: 25 }, embedder: { allowDownload: false } });
    expect((await cli(['get', 'search.limit'], env)).stdout).toBe('25\n');
  });

  it('rejects an invalid value and leaves the file unchanged', async () => {
    const { env, file } = fresh();
    await cli(['set', 'dedupe.threshold', '0.9'], env);
    const before = readFileSync(file, 'utf8');

    const tooBig = await cli(['set', 'dedupe.threshold', '3'], env);
    expect(tooBig.exitCode).toBe(1);
    expect(tooBig.stderr).toMatch(/dedupe\.threshold: Too big/);

    const notNumber = await cli(['set', 'dedupe.threshold', 'high'], env);
    expect(notNumber.exitCode).toBe(1);
    expect(notNumber.stderr).toMatch(/dedupe\.threshold expects a number, got "high"/);

    const badEmbedder = await cli(['set', 'embedder.id', 'word2vec'], env);
    expect(badEmbedder.exitCode).toBe(1);
    expect(badEmbedder.stderr).toMatch(/embedder\.id: must be transformers:<model>/);

    expect(readFileSync(file, 'utf8')).toBe(before);
  });

  it('warns when an environment variable overrides the key being set', async () => {
    const { env } = fresh({ RECALL_OLLAMA_LLM_MODEL: 'from-env' });
    const set = await cli(['set', 'ollama.llmModel', 'from-file'], env);
    expect(set.exitCode).toBe(0);
    expect(set.stderr).toMatch(/RECALL_OLLAMA_LLM_MODEL=from-env is set in the environment and overrides ollama\.llmModel/);
    const get = JSON.parse((await cli(['get', 'ollama.llmModel', '--json'], env)).stdout) as { value: string; source: string; envVar: string };
    expect(get).toEqual({ key: 'ollama.llmModel', value: 'from-env', source: 'env', envVar: 'RECALL_OLLAMA_LLM_MODEL' });
  });

  it('names the bad key of a broken config.json, and set of a valid value repairs it', async () => {
    const { env, file, home } = fresh();
    mkdirSync(home, { recursive: true });
    writeFileSync(file, JSON.stringify({ dedupe: { threshold: 3 } }));

    for (const args of [['list'], ['get', 'search.limit']]) {
      const result = await cli(args, env);
      expect(result.exitCode).toBe(1);
      expect(result.stderr).toMatch(/invalid configuration: dedupe\.threshold \(in .*config\.json\): Too big/);
      expect(result.stderr).toMatch(/recall config set dedupe\.threshold <value>/);
    }

    expect((await cli(['set', 'dedupe.threshold', '0.8'], env)).exitCode).toBe(0);
    expect((await cli(['get', 'dedupe.threshold'], env)).stdout).toBe('0.8\n');
  });

  it('refuses an unknown key and lists close matches', async () => {
    const { env } = fresh();
    const result = await cli(['get', 'ollama.model'], env);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toMatch(/unknown config key "ollama\.model"; did you mean ollama\.llmModel/);
    expect((await cli(['set', 'dedupe.treshold', '0.9'], env)).stderr).toMatch(/did you mean dedupe\.threshold/);
  });

  it('refuses to set an unknown key with a non-zero exit and leaves config.json unwritten', async () => {
    const { env, file } = fresh();
    const result = await cli(['set', 'ollama.model', 'qwen3:4b'], env);
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toBe('');
    expect(() => statSync(file)).toThrow();
  });

  it('warns on stderr in one line, on any command, when config.json holds a key recall ignores', async () => {
    const { env, home, file } = fresh();
    mkdirSync(home, { recursive: true });
    writeFileSync(file, JSON.stringify({ ollama: { model: 'qwen3:4b' }, dedupe: { threshold: 0.9 } }));
    for (const args of [['config', 'get', 'dedupe.threshold'], ['status']]) {
      const result = await runCli(args, { env });
      expect(result.exitCode).toBe(0);
      expect(result.stderr).toBe(`warning: ${file} has keys recall ignores: ollama.model (did you mean ollama.llmModel?)\n`);
    }
    writeFileSync(file, JSON.stringify({ dedupe: { threshold: 0.9 } }));
    expect((await cli(['get', 'dedupe.threshold'], env)).stderr).toBe('');
  });

  it('says under each key what it accepts, from its bounds', async () => {
    const { env } = fresh();
    const human = (await runOnTerminal(['config', 'list'], env)).stdout;
    expect(human).toMatch(/^dedupe\.threshold = 0\.85 {2}\(default\)\n {4}Cosine similarity[^\n]*\n {4}allowed: a number from 0 to 1\n/m);
    const json = JSON.parse((await cli(['list', '--json'], env)).stdout) as Array<{ key: string; allowed: string }>;
    expect(json.find((e) => e.key === 'context.maxChars')?.allowed).toBe('a whole number from 200 to 10000');
  });

  it('lists every key with its value, source and description in human form', async () => {
    const { env } = fresh({ OLLAMA_HOST: 'localhost:9999' });
    const result = await runOnTerminal(['config', 'list'], env);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(/^ollama\.host = http:\/\/localhost:9999 {2}\(env OLLAMA_HOST\)\n {4}Ollama base URL/m);
    expect(result.stdout).toMatch(/^search\.limit = 10 {2}\(default\)$/m);
  });

  it('lists one tab-separated line per key when piped, so grep finds a key with its value and source', async () => {
    const { env } = fresh({ OLLAMA_HOST: 'localhost:9999' });
    const result = await cli(['list'], env);
    expect(result.exitCode).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe('key\tvalue\tsource\tdescription\tallowed');
    expect(lines.every((line) => line.split('\t').length === 5)).toBe(true);
    const keys = (JSON.parse((await cli(['list', '--json'], env)).stdout) as unknown[]).length;
    expect(lines).toHaveLength(keys + 1);
    expect(lines.filter((line) => line.startsWith('ollama.host\t'))).toEqual([expect.stringMatching(/^ollama\.host\thttp:\/\/localhost:9999\tenv OLLAMA_HOST\tOllama base URL/)]);
  });

  it('prints the config file path', async () => {
    const { env, file } = fresh();
    expect((await cli(['path'], env)).stdout).toBe(`${file}\n`);
  });

  it('prints set, unset and path as JSON with --json', async () => {
    const { env, file } = fresh();
    expect(JSON.parse((await cli(['path', '--json'], env)).stdout)).toEqual({ path: file });
    expect(JSON.parse((await cli(['set', 'search.limit', '7', '--json'], env)).stdout)).toEqual({ key: 'search.limit', value: 7, file });
    expect(JSON.parse((await cli(['unset', 'search.limit', '--json'], env)).stdout)).toEqual({ key: 'search.limit', removed: true, default: 10, file });
    expect(JSON.parse((await cli(['unset', 'search.limit', '--json'], env)).stdout)).toEqual({ key: 'search.limit', removed: false, default: 10, file });
  });
});
