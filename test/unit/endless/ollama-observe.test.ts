import { createServer, type Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { isRecallError } from '../../../src/core/errors.js';
import { buildObservationPrompt } from '../../../src/endless/observation-prompt.js';
import { requestObservation } from '../../../src/endless/ollama-observe.js';
import { postJson, type PostJson } from '../../../src/endless/post-json.js';

const prompt = buildObservationPrompt('Bash', { command: 'ls' }, 'a\nb', { maxOutputChars: 1000, minNumCtx: 4096 });
const answer = (content: unknown) => JSON.stringify({ model: 'm', message: { role: 'assistant', content }, done: true });
const observationJson = JSON.stringify({ type: 'discovery', title: 'ls lists two files', narrative: 'a and b.', facts: ['a', 'b'] });
const call = (post: PostJson) => requestObservation({ host: 'http://ollama.test', model: 'm', prompt, timeoutMs: 1000, post });

describe('requestObservation', () => {
  it('posts a non-streamed chat with the observation schema as format and returns the validated observation', async () => {
    let sent: Record<string, unknown> = {};
    let url = '';
    const observation = await call(async (u, body) => {
      url = u;
      sent = JSON.parse(body) as Record<string, unknown>;
      return { status: 200, text: answer(observationJson) };
    });
    expect(url).toBe('http://ollama.test/api/chat');
    expect(sent).toMatchObject({ model: 'm', stream: false, format: { type: 'object' }, options: { temperature: 0, num_ctx: 4096 } });
    expect(observation).toMatchObject({ title: 'ls lists two files', facts: ['a', 'b'] });
  });

  it.each([
    [404, 'LLM_MODEL_MISSING'],
    [400, 'LLM_BAD_OUTPUT'],
    [500, 'LLM_UNAVAILABLE'],
    [503, 'LLM_UNAVAILABLE'],
  ])('turns HTTP %i into %s', async (status, code) => {
    await expect(call(async () => ({ status, text: '{"error":"x"}' }))).rejects.toSatisfy((err) => isRecallError(err, code as never));
  });

  it('reports a body that is not JSON, a missing content and an unusable observation as bad output', async () => {
    for (const text of ['<html>', JSON.stringify({ message: {} }), answer('{"memories": []}'), answer('no json at all')]) {
      await expect(call(async () => ({ status: 200, text }))).rejects.toSatisfy((err) => isRecallError(err, 'LLM_BAD_OUTPUT'));
    }
  });

  it('reports a refused connection as unavailable and a deadline as a timeout, by code and error name', async () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    await expect(call(async () => { throw refused; })).rejects.toSatisfy((err) => isRecallError(err, 'LLM_UNAVAILABLE'));
    const timeout = Object.assign(new Error('The operation was aborted due to timeout'), { name: 'TimeoutError' });
    await expect(call(async () => { throw timeout; })).rejects.toSatisfy((err) => isRecallError(err, 'LLM_TIMEOUT'));
  });
});

describe('postJson', () => {
  let server: Server | undefined;
  afterEach(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
    server = undefined;
  });

  async function serve(handler: Parameters<typeof createServer>[1]): Promise<string> {
    server = createServer(handler);
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  }

  it('sends the body and returns the status and text', async () => {
    const url = await serve((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => res.writeHead(201).end(`got ${body}`));
    });
    expect(await postJson(`${url}/api/chat`, '{"a":1}', AbortSignal.timeout(2000))).toEqual({ status: 201, text: 'got {"a":1}' });
  });

  it('gives up at the deadline with a TimeoutError', async () => {
    const url = await serve(() => undefined);
    await expect(postJson(`${url}/api/chat`, '{}', AbortSignal.timeout(100))).rejects.toMatchObject({ name: 'TimeoutError' });
  });

  it('refuses an answer larger than any observation', async () => {
    const url = await serve((_req, res) => {
      res.writeHead(200);
      const chunk = Buffer.alloc(1024 * 1024, 'x');
      for (let i = 0; i < 6; i += 1) res.write(chunk);
      res.end();
    });
    await expect(postJson(`${url}/api/chat`, '{}', AbortSignal.timeout(5000))).rejects.toMatchObject({ code: 'ERR_RECALL_RESPONSE_TOO_LARGE' });
  });
});
