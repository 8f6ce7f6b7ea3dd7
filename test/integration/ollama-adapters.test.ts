/** The real `ollama` client against the Ollama-protocol double on 127.0.0.1. */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createOllamaDouble } from '../../scripts/ollama-double.mjs';
import type { OllamaDouble, RequestBody } from '../../scripts/ollama-double.mjs';
import { isRecallError } from '../../src/core/errors.js';
import type { RecallErrorCode } from '../../src/core/errors.js';
import { createOllamaEmbedder } from '../../src/adapters/ollama-embedder.js';
import { createOllamaLlm, listModels, ollamaModelAvailable } from '../../src/adapters/ollama-llm.js';
import { extractMemories, memoriesAnswerJsonSchema } from '../../src/extract/extract-memories.js';

const MODEL = 'llama3.2:3b';
const EMBED_MODEL = 'nomic-embed-text';
const SCHEMA = { type: 'object', properties: { memories: { type: 'array' } }, required: ['memories'] };
const ANSWER = JSON.stringify({ memories: [{ content: 'You MUST use pnpm, not npm.', type: 'golden_rule' }] });

let double: OllamaDouble;
let url: string;
let close: () => Promise<void>;

beforeAll(async () => {
  double = createOllamaDouble({ models: [MODEL, `${EMBED_MODEL}:latest`], reply: ANSWER });
  ({ url, close } = await double.start());
});

afterAll(async () => {
  await close();
});

afterEach(() => {
  double.reset();
  vi.restoreAllMocks();
});

function llm(overrides: { model?: string; timeoutMs?: number; host?: string } = {}) {
  return createOllamaLlm({ host: url, model: MODEL, timeoutMs: 5_000, ...overrides });
}

const request = { system: 'You extract memories.', prompt: 'User: use pnpm', schema: SCHEMA, numCtx: 8192 };

async function failure(promise: Promise<unknown>): Promise<{ code: RecallErrorCode; message: string; ms: number }> {
  const started = Date.now();
  try {
    await promise;
  } catch (err) {
    if (!isRecallError(err)) throw err;
    return { code: err.code, message: err.message, ms: Date.now() - started };
  }
  throw new Error('expected a RecallError');
}

function chatBodies(): RequestBody[] {
  return double.requestsTo('/api/chat').map((r) => r.body as RequestBody);
}

describe('createOllamaLlm against the double', () => {
  it('returns the assistant content of a non-streamed chat', async () => {
    double.reply = 'plain answer';
    await expect(llm().chat(request)).resolves.toBe('plain answer');
    expect(chatBodies()[0]?.stream).toBe(false);
  });

  it('sends the schema as format, num_ctx and temperature 0 in options, and system + user messages', async () => {
    await llm().chat(request);
    const body = chatBodies()[0];
    expect(body?.model).toBe(MODEL);
    expect(body?.format).toEqual(SCHEMA);
    expect(body?.options).toEqual({ num_ctx: 8192, temperature: 0 });
    expect(body?.messages).toEqual([
      { role: 'system', content: request.system },
      { role: 'user', content: request.prompt },
    ]);
  });

  it('sends no format when the request has no schema', async () => {
    await llm().chat({ system: 's', prompt: 'p', numCtx: 4096 });
    expect(chatBodies()[0]).not.toHaveProperty('format');
  });

  it('fails with LLM_MODEL_MISSING and the exact pull command when the model is not installed', async () => {
    const { code, message } = await failure(llm({ model: 'qwen2.5:7b' }).chat(request));
    expect(code).toBe('LLM_MODEL_MISSING');
    expect(message).toContain('ollama pull qwen2.5:7b');
  });

  it('fails with LLM_UNAVAILABLE when nothing listens on the port', async () => {
    const gone = createOllamaDouble();
    const started = await gone.start();
    await started.close();
    const { code } = await failure(llm({ host: started.url }).chat(request));
    expect(code).toBe('LLM_UNAVAILABLE');
  });

  it('fails with LLM_TIMEOUT after timeoutMs when the server is slower, before its answer comes', async () => {
    double.delayMs = 30_000;
    const { code } = await failure(llm({ timeoutMs: 200 }).chat(request));
    expect(code).toBe('LLM_TIMEOUT');
  });

  it('fails with LLM_UNAVAILABLE on HTTP 500', async () => {
    double.configure({ failStatus: 500, failMessage: 'llama runner process has terminated' });
    const { code, message } = await failure(llm().chat(request));
    expect(code).toBe('LLM_UNAVAILABLE');
    expect(message).toContain('HTTP 500');
    expect(message).toContain('llama runner process has terminated');
  });

  it('fails with LLM_UNAVAILABLE on a non-JSON 502 without printing anything', async () => {
    const log = vi.spyOn(console, 'log');
    double.configure({ failStatus: 502, garbage: true });
    const { code } = await failure(llm().chat(request));
    expect(code).toBe('LLM_UNAVAILABLE');
    expect(log).not.toHaveBeenCalled();
  });

  it('fails with LLM_BAD_OUTPUT when the server refuses the schema with HTTP 400', async () => {
    double.rejectFormat = true;
    expect((await failure(llm().chat(request))).code).toBe('LLM_BAD_OUTPUT');
  });

  it('fails with LLM_BAD_OUTPUT when a 200 body is not JSON', async () => {
    double.garbage = true;
    expect((await failure(llm().chat(request))).code).toBe('LLM_BAD_OUTPUT');
  });
});

describe('extractMemories through the real client', () => {
  it('sends the answer schema and stream:false, and returns the memories', async () => {
    const { memories } = await extractMemories({ transcript: 'User: You MUST use pnpm, not npm.', firstRequest: null }, { llm: llm(), minNumCtx: 8192, maxMemories: 8 });
    expect(memories).toEqual([{ content: 'You MUST use pnpm, not npm.', type: 'golden_rule', importance: 1.0 }]);
    const [body] = chatBodies();
    expect(body?.format).toEqual(memoriesAnswerJsonSchema());
    expect(body?.stream).toBe(false);
    expect(body?.options?.num_ctx).toBe(8192);
  });

  it('retries without the schema when the server rejects it, and succeeds', async () => {
    double.rejectFormat = true;
    const { memories } = await extractMemories({ transcript: 'User: You MUST use pnpm, not npm.', firstRequest: null }, { llm: llm(), minNumCtx: 8192, maxMemories: 8 });
    expect(memories.map((m) => m.content)).toEqual(['You MUST use pnpm, not npm.']);
    const bodies = chatBodies();
    expect(bodies).toHaveLength(2);
    expect(bodies[0]?.format).toBeTypeOf('object');
    expect(bodies[1]).not.toHaveProperty('format');
  });

  it("turns the double's default reply into golden rules from the user's MUST sentences", async () => {
    double.reply = (await import('../../scripts/ollama-double.mjs')).defaultReply;
    const { memories } = await extractMemories({ transcript: 'User: You MUST use pnpm, not npm. Thanks.', firstRequest: null }, { llm: llm(), minNumCtx: 8192, maxMemories: 8 });
    expect(memories).toContainEqual({ content: 'You MUST use pnpm, not npm.', type: 'golden_rule', importance: 1.0 });
  });
});

describe('createOllamaEmbedder against the double', () => {
  function embedder(batchSize?: number) {
    return createOllamaEmbedder({ host: url, model: EMBED_MODEL, timeoutMs: 5_000, batchSize });
  }

  it('is identified as ollama:<model>', () => {
    expect(embedder().id).toBe(`ollama:${EMBED_MODEL}`);
  });

  it('returns one unit-length Float32Array of dimension 32 per text', async () => {
    const vectors = await embedder().embed(['use pnpm not npm', 'postgres sixteen', 'run vitest']);
    expect(vectors).toHaveLength(3);
    for (const v of vectors) {
      expect(v).toBeInstanceOf(Float32Array);
      expect(v).toHaveLength(32);
      expect(Math.hypot(...v)).toBeCloseTo(1, 5);
    }
  });

  it('normalises vectors the server returns unnormalised', async () => {
    double.embed = () => [3, 4];
    const [v] = await embedder().embed(['anything']);
    expect(Array.from(v ?? [])).toEqual([expect.closeTo(0.6, 6), expect.closeTo(0.8, 6)]);
  });

  it('sends the texts in batches of batchSize and keeps their order', async () => {
    const texts = Array.from({ length: 70 }, (_, i) => `memory number ${i}`);
    const vectors = await embedder(32).embed(texts);
    const inputs = double.requestsTo('/api/embed').map((r) => ((r.body as RequestBody).input as string[]).length);
    expect(inputs).toEqual([32, 32, 6]);
    const [single] = await embedder().embed(['memory number 69']);
    expect(Array.from(vectors[69] ?? [])).toEqual(Array.from(single ?? []));
  });

  it('returns an empty list without calling the server for no texts', async () => {
    await expect(embedder().embed([])).resolves.toEqual([]);
    expect(double.requestsTo('/api/embed')).toHaveLength(0);
  });

  it('returns the zero vector, not NaN, for a text the model maps to zero', async () => {
    const [v] = await embedder().embed(['!!!']);
    expect(Array.from(v ?? [])).toEqual(new Array(32).fill(0));
  });

  it('fails with EMBEDDER_UNAVAILABLE and the pull command when the model is missing', async () => {
    double.models = [MODEL];
    const { code, message } = await failure(embedder().embed(['x']));
    expect(code).toBe('EMBEDDER_UNAVAILABLE');
    expect(message).toContain(`ollama pull ${EMBED_MODEL}`);
  });

  it('fails with EMBEDDER_UNAVAILABLE when the server returns fewer vectors than texts', async () => {
    double.embed = () => [];
    expect((await failure(embedder().embed(['a b', 'c d']))).code).toBe('EMBEDDER_UNAVAILABLE');
  });
});

describe('model listing helpers', () => {
  it('lists the installed models with their tags', async () => {
    await expect(listModels(url)).resolves.toEqual([MODEL, `${EMBED_MODEL}:latest`]);
  });

  it('treats a model name without a tag as :latest', async () => {
    await expect(ollamaModelAvailable(url, EMBED_MODEL)).resolves.toBe(true);
    await expect(ollamaModelAvailable(url, 'llama3.2')).resolves.toBe(false);
  });

  it('fails with LLM_UNAVAILABLE when the server is down', async () => {
    const gone = createOllamaDouble();
    const started = await gone.start();
    await started.close();
    expect((await failure(listModels(started.url))).code).toBe('LLM_UNAVAILABLE');
  });
});

describe('the Ollama double speaks the real protocol', () => {
  it('streams NDJSON chat chunks by default, ending with a done chunk carrying stats', async () => {
    double.reply = 'Streaming works one piece at a time.';
    const response = await fetch(`${url}/api/chat`, {
      method: 'POST',
      body: JSON.stringify({ model: MODEL, messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(response.headers.get('content-type')).toBe('application/x-ndjson');
    const lines = (await response.text()).trim().split('\n').map((line) => JSON.parse(line) as RequestBody);
    expect(lines.length).toBeGreaterThan(2);
    expect(lines.slice(0, -1).every((l) => l.done === false && l.message.role === 'assistant')).toBe(true);
    expect(lines.map((l) => l.message.content).join('')).toBe('Streaming works one piece at a time.');
    expect(lines.at(-1)).toMatchObject({ done: true, done_reason: 'stop', model: MODEL });
    expect(lines.at(-1)?.eval_count).toBeTypeOf('number');
    expect(lines.at(-1)?.total_duration).toBeTypeOf('number');
  });

  it('answers one JSON object when stream is false', async () => {
    double.reply = 'one object';
    const response = await fetch(`${url}/api/generate`, {
      method: 'POST',
      body: JSON.stringify({ model: MODEL, prompt: 'hi', stream: false }),
    });
    expect(response.headers.get('content-type')).toContain('application/json');
    expect(await response.json()).toMatchObject({ model: MODEL, response: 'one object', done: true, done_reason: 'stop' });
  });

  it("answers 404 with a JSON {error: \"model 'x' not found\"} for an unknown model", async () => {
    const response = await fetch(`${url}/api/chat`, { method: 'POST', body: JSON.stringify({ model: 'x', messages: [] }) });
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toContain('application/json');
    expect(await response.json()).toEqual({ error: "model 'x' not found" });
  });

  it('answers 400 with a JSON error for a body that is not JSON', async () => {
    const response = await fetch(`${url}/api/chat`, { method: 'POST', body: '{"model": ' });
    expect(response.status).toBe(400);
    expect(await response.json()).toHaveProperty('error');
  });

  it('answers /api/show for an installed model and 404 for an unknown one', async () => {
    const known = await fetch(`${url}/api/show`, { method: 'POST', body: JSON.stringify({ model: MODEL }) });
    expect(known.status).toBe(200);
    expect(await known.json()).toHaveProperty('details.format', 'gguf');
    const unknown = await fetch(`${url}/api/show`, { method: 'POST', body: JSON.stringify({ model: 'nope' }) });
    expect(unknown.status).toBe(404);
  });

  it('reports a version on /api/version', async () => {
    expect(await (await fetch(`${url}/api/version`)).json()).toEqual({ version: double.version });
  });

  it('embeds a single string input as a list of one vector', async () => {
    const response = await fetch(`${url}/api/embed`, { method: 'POST', body: JSON.stringify({ model: EMBED_MODEL, input: 'one text' }) });
    const body = (await response.json()) as { model: string; embeddings: number[][] };
    expect(body.model).toBe(EMBED_MODEL);
    expect(body.embeddings).toHaveLength(1);
    expect(body.embeddings[0]).toHaveLength(32);
  });

  it('stops failing after failTimes requests', async () => {
    double.configure({ failStatus: 500, failTimes: 1 });
    const body = JSON.stringify({ model: MODEL, messages: [], stream: false });
    expect((await fetch(`${url}/api/chat`, { method: 'POST', body })).status).toBe(500);
    expect((await fetch(`${url}/api/chat`, { method: 'POST', body })).status).toBe(200);
  });
});
