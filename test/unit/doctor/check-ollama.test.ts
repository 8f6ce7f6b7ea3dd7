import { describe, expect, it } from 'vitest';
import { checkLlmModel, checkOllama, type OllamaProbe } from '../../../src/doctor/check-ollama.js';

const HOST = 'http://127.0.0.1:11434';
const up: OllamaProbe = { reachable: true, version: '0.6.8', models: ['llama3.2:3b', 'nomic-embed-text:latest'] };
const down: OllamaProbe = { reachable: false, failure: 'unreachable', detail: 'ECONNREFUSED' };

describe('checkOllama', () => {
  it('passes a reachable server and reports its version', () => {
    expect(checkOllama(HOST, up)).toMatchObject({ status: 'ok', detail: `version 0.6.8 at ${HOST}, 2 model(s)` });
  });

  it('fails an unreachable server and says how to start it', () => {
    const result = checkOllama(HOST, down);
    expect(result.status).toBe('fail');
    expect(result.detail).toBe(`cannot reach Ollama at ${HOST} (ECONNREFUSED)`);
    expect(result.fix).toMatch(/ollama serve/);
    expect(result.fix).toMatch(/recall config set ollama\.host/);
  });

  it('fails a server that does not answer in time', () => {
    expect(checkOllama(HOST, { reachable: false, failure: 'timeout', detail: '' })).toMatchObject({ status: 'fail', detail: expect.stringMatching(/within 2 s/) });
  });

  it('fails a host that answers but is not Ollama', () => {
    expect(checkOllama(HOST, { reachable: false, failure: 'not-ollama', detail: 'HTTP 404' }).detail).toMatch(/not as Ollama does \(HTTP 404\)/);
  });
});

describe('checkLlmModel', () => {
  it('passes a pulled model, with or without the :latest tag', () => {
    expect(checkLlmModel('llama3.2:3b', up).status).toBe('ok');
    expect(checkLlmModel('nomic-embed-text', up).status).toBe('ok');
  });

  it('fails a missing model with the exact ollama pull command', () => {
    expect(checkLlmModel('qwen2.5:7b', up)).toMatchObject({ status: 'fail', fix: 'ollama pull qwen2.5:7b' });
  });

  it('fails when no model is configured, suggesting an installed chat model', () => {
    const result = checkLlmModel(undefined, up);
    expect(result.status).toBe('fail');
    expect(result.fix).toMatch(/^export RECALL_OLLAMA_LLM_MODEL=llama3\.2:3b/);
  });

  it('suggests a common model when Ollama cannot be asked', () => {
    expect(checkLlmModel(undefined, down).fix).toMatch(/^export RECALL_OLLAMA_LLM_MODEL=llama3\.2 /);
  });

  it('warns, rather than fails, when Ollama is down and the model cannot be checked', () => {
    expect(checkLlmModel('llama3.2:3b', down)).toMatchObject({ status: 'warn', detail: expect.stringMatching(/not checked/) });
  });
});
