import { describe, expect, it } from 'vitest';
import { RESPONSE_TOO_LARGE, type HttpTransport, type TextRequest } from '../../../src/adapters/http-text-request.js';
import { createOllamaHttpClient } from '../../../src/adapters/ollama-http-client.js';
import { translateOllamaError } from '../../../src/adapters/translate-ollama-error.js';
import { isRecallError } from '../../../src/core/errors.js';

const HOST = 'http://127.0.0.1:11434';

/** A transport that records each request and answers with `status` and `text`. */
function answering(status: number, text: string, sent: TextRequest[] = []): HttpTransport {
  return async (request) => {
    sent.push(request);
    return { status, text };
  };
}

const client = (transport: HttpTransport) => createOllamaHttpClient({ host: `${HOST}/`, timeoutMs: 1_000, transport });

async function thrown(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (err) {
    return err;
  }
  throw new Error('expected a failure');
}

describe('createOllamaHttpClient', () => {
  it('posts a non-streamed chat with format and options, and returns the answer object', async () => {
    const sent: TextRequest[] = [];
    const answer = await client(answering(200, '{"message":{"content":"hi"}}', sent)).chat({
      model: 'm', messages: [{ role: 'user', content: 'q' }], format: { type: 'object' }, options: { temperature: 0 },
    });
    expect(answer).toEqual({ message: { content: 'hi' } });
    expect(sent[0]).toMatchObject({ method: 'POST', url: `${HOST}/api/chat` });
    expect(JSON.parse(sent[0]!.body!)).toEqual({ model: 'm', messages: [{ role: 'user', content: 'q' }], stream: false, format: { type: 'object' }, options: { temperature: 0 } });
  });

  it("throws an HTTP error answer as a ResponseError carrying the status and the server's reason", async () => {
    const err = await thrown(client(answering(404, '{"error":"model \'m\' not found"}')).chat({ model: 'm', messages: [] }));
    expect(err).toMatchObject({ name: 'ResponseError', status_code: 404, error: "model 'm' not found" });
  });

  it('takes the text of an error body that is not JSON as the reason, and the status when there is none', async () => {
    expect(await thrown(client(answering(502, '<html>bad gateway</html>')).list())).toMatchObject({ status_code: 502, error: '<html>bad gateway</html>' });
    expect(await thrown(client(answering(503, '')).list())).toMatchObject({ status_code: 503, error: 'HTTP 503' });
  });

  it('throws a SyntaxError for a 200 whose body is not JSON, and for a model list without models', async () => {
    expect(await thrown(client(answering(200, '<html>')).embed({ model: 'e', input: ['a'] }))).toBeInstanceOf(SyntaxError);
    expect(await thrown(client(answering(200, '{"tags":[]}')).list())).toBeInstanceOf(SyntaxError);
  });

  it('lists the models by name, skipping entries without one, and reads the version', async () => {
    const sent: TextRequest[] = [];
    expect(await client(answering(200, '{"models":[{"name":"a:latest"},{"size":1},{"name":"b:7b"}]}', sent)).list()).toEqual(['a:latest', 'b:7b']);
    expect(sent[0]).toMatchObject({ method: 'GET', url: `${HOST}/api/tags`, body: undefined });
    expect(await client(answering(200, '{"version":"0.12.3"}')).version()).toBe('0.12.3');
    expect(await client(answering(200, '{}')).version()).toBeNull();
  });

  it('refuses a host that is not a URL as a configuration error', () => {
    expect(() => createOllamaHttpClient({ host: 'http://[::1', timeoutMs: 1_000 })).toThrow(expect.objectContaining({ code: 'CONFIG_INVALID' }));
  });

  it('bounds every request by the timeout and the size cap it was given', async () => {
    const sent: TextRequest[] = [];
    await createOllamaHttpClient({ host: HOST, timeoutMs: 50, maxResponseBytes: 1234, transport: answering(200, '{}', sent) }).version();
    expect(sent[0]!.maxResponseBytes).toBe(1234);
    expect(sent[0]!.signal.aborted).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 120));
    expect(sent[0]!.signal.aborted).toBe(true);
  });

  it('fails an answer over the size cap as bad output, by its code', () => {
    const tooLarge = Object.assign(new Error('response over 10 bytes'), { code: RESPONSE_TOO_LARGE });
    const err = translateOllamaError(tooLarge, { role: 'llm', host: HOST, model: 'm', timeoutMs: 1_000 });
    expect(isRecallError(err, 'LLM_BAD_OUTPUT')).toBe(true);
  });
});
