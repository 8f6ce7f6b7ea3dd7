/** Endless Mode's observation call fails exactly as capture's chat does: one client, one translation. */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createOllamaDouble } from '../../scripts/ollama-double.mjs';
import type { OllamaDouble } from '../../scripts/ollama-double.mjs';
import { createOllamaLlm } from '../../src/adapters/ollama-llm.js';
import { isRecallError } from '../../src/core/errors.js';
import { buildObservationPrompt } from '../../src/endless/observation-prompt.js';
import { requestObservation } from '../../src/endless/ollama-observe.js';

const MODEL = 'llama3.2:3b';
const prompt = buildObservationPrompt('Bash', { command: 'ls' }, 'a\nb', { maxOutputChars: 1000, minNumCtx: 4096 });

let double: OllamaDouble;
let url: string;
let close: () => Promise<void>;

beforeAll(async () => {
  double = createOllamaDouble({ models: [MODEL] });
  ({ url, close } = await double.start());
});

afterAll(async () => {
  await close();
});

afterEach(() => {
  double.reset();
});

async function failure(promise: Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await promise;
  } catch (err) {
    if (!isRecallError(err)) throw err;
    return { code: err.code, message: err.message };
  }
  throw new Error('expected a RecallError');
}

/** The same call made by capture (the Llm adapter) and by Endless Mode (the observation request). */
async function bothFailures(host: string, model: string) {
  const capture = await failure(createOllamaLlm({ host, model, timeoutMs: 5_000 }).chat({ system: 's', prompt: 'p', numCtx: 4096 }));
  const endless = await failure(requestObservation({ host, model, prompt, timeoutMs: 5_000 }));
  return { capture, endless };
}

describe("Endless Mode's Ollama errors", () => {
  it("match capture's for a model the server does not have (HTTP 404)", async () => {
    const { capture, endless } = await bothFailures(url, 'qwen2.5:7b');
    expect(endless).toEqual(capture);
    expect(endless.code).toBe('LLM_MODEL_MISSING');
    expect(endless.message).toContain('ollama pull qwen2.5:7b');
  });

  it("match capture's for an error body, the server's reason included", async () => {
    double.configure({ failStatus: 500, failMessage: 'llama runner process has terminated' });
    const { capture, endless } = await bothFailures(url, MODEL);
    expect(endless).toEqual(capture);
    expect(endless.code).toBe('LLM_UNAVAILABLE');
    expect(endless.message).toContain('HTTP 500');
    expect(endless.message).toContain('llama runner process has terminated');
  });

  it("match capture's for a refused connection", async () => {
    const gone = createOllamaDouble();
    const started = await gone.start();
    await started.close();
    const { capture, endless } = await bothFailures(started.url, MODEL);
    expect(endless).toEqual(capture);
    expect(endless.code).toBe('LLM_UNAVAILABLE');
    expect(endless.message).toContain('ECONNREFUSED');
  });
});
