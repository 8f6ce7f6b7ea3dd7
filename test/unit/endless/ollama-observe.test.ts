import { describe, expect, it } from 'vitest';
import { isRecallError } from '../../../src/core/errors.js';
import { buildObservationPrompt } from '../../../src/endless/observation-prompt.js';
import { requestObservation } from '../../../src/endless/ollama-observe.js';
import type { HttpTransport, TextRequest } from '../../../src/adapters/http-text-request.js';

const prompt = buildObservationPrompt('Bash', { command: 'ls' }, 'a\nb', { maxOutputChars: 1000, minNumCtx: 4096 });
const answer = (content: unknown) => JSON.stringify({ model: 'm', message: { role: 'assistant', content }, done: true });
const observationJson = JSON.stringify({ type: 'discovery', title: 'ls lists two files', narrative: 'a and b.', facts: ['a', 'b'] });
const call = (transport: HttpTransport) => requestObservation({ host: 'http://ollama.test', model: 'm', prompt, timeoutMs: 1000, transport });

describe('requestObservation', () => {
  it('posts a non-streamed chat with the observation schema as format and returns the validated observation', async () => {
    let sent: Record<string, unknown> = {};
    let url = '';
    const observation = await call(async (request: TextRequest) => {
      url = request.url;
      sent = JSON.parse(request.body ?? '') as Record<string, unknown>;
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
