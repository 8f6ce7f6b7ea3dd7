import { describe, expect, it } from 'vitest';
import { RecallError } from '../../../src/core/errors.js';
import { normalize } from '../../../src/adapters/ollama-embedder.js';
import { classifyOllamaError, translateOllamaError } from '../../../src/adapters/translate-ollama-error.js';
import type { OllamaErrorContext } from '../../../src/adapters/translate-ollama-error.js';

const LLM: OllamaErrorContext = { role: 'llm', host: 'http://127.0.0.1:11434', model: 'llama3.2:3b', timeoutMs: 1000 };
const EMBEDDER: OllamaErrorContext = { ...LLM, role: 'embedder', model: 'nomic-embed-text' };

/** The shape the ollama client throws (its ResponseError class is not exported). */
function responseError(status: number, message = 'server said no'): Error {
  return Object.assign(new Error(message), { name: 'ResponseError', error: message, status_code: status });
}

function fetchFailed(cause: unknown): TypeError {
  return new TypeError('fetch failed', { cause });
}

function errnoError(code: string): Error {
  return Object.assign(new Error(`connect ${code}`), { code });
}

describe('translateOllamaError', () => {
  it('turns HTTP 404 into LLM_MODEL_MISSING with the ollama pull fix', () => {
    const err = translateOllamaError(responseError(404, "model 'llama3.2:3b' not found"), LLM);
    expect(err.code).toBe('LLM_MODEL_MISSING');
    expect(err.message).toContain('ollama pull llama3.2:3b');
  });

  it('turns HTTP 400 into LLM_BAD_OUTPUT', () => {
    expect(translateOllamaError(responseError(400), LLM).code).toBe('LLM_BAD_OUTPUT');
  });

  it('turns HTTP 500 and 503 into LLM_UNAVAILABLE', () => {
    expect(translateOllamaError(responseError(500), LLM).code).toBe('LLM_UNAVAILABLE');
    expect(translateOllamaError(responseError(503), LLM).code).toBe('LLM_UNAVAILABLE');
  });

  it('turns other 4xx statuses into LLM_UNAVAILABLE', () => {
    expect(translateOllamaError(responseError(401), LLM).code).toBe('LLM_UNAVAILABLE');
  });

  it('turns ECONNREFUSED in the fetch cause into LLM_UNAVAILABLE naming the code', () => {
    const err = translateOllamaError(fetchFailed(errnoError('ECONNREFUSED')), LLM);
    expect(err.code).toBe('LLM_UNAVAILABLE');
    expect(err.message).toContain('ECONNREFUSED');
  });

  it('finds ECONNREFUSED inside an AggregateError cause', () => {
    const cause = new AggregateError([errnoError('ECONNREFUSED'), errnoError('ECONNREFUSED')], 'all failed');
    expect(translateOllamaError(fetchFailed(cause), LLM).message).toContain('ECONNREFUSED');
  });

  it('turns ENOTFOUND into LLM_UNAVAILABLE', () => {
    expect(translateOllamaError(fetchFailed(errnoError('ENOTFOUND')), LLM).code).toBe('LLM_UNAVAILABLE');
  });

  it('turns a TimeoutError and an AbortError into LLM_TIMEOUT', () => {
    const timeout = new DOMException('The operation was aborted due to timeout', 'TimeoutError');
    const abort = new DOMException('This operation was aborted', 'AbortError');
    expect(translateOllamaError(timeout, LLM).code).toBe('LLM_TIMEOUT');
    expect(translateOllamaError(abort, LLM).code).toBe('LLM_TIMEOUT');
  });

  it("turns undici's headers timeout into LLM_TIMEOUT", () => {
    expect(translateOllamaError(fetchFailed(errnoError('UND_ERR_HEADERS_TIMEOUT')), LLM).code).toBe('LLM_TIMEOUT');
  });

  it('turns a SyntaxError from reading the body into LLM_BAD_OUTPUT', () => {
    expect(translateOllamaError(new SyntaxError('Unexpected token <'), LLM).code).toBe('LLM_BAD_OUTPUT');
  });

  it('classifies by status, not by message text', () => {
    expect(classifyOllamaError(responseError(500, "model 'x' not found"))).toBe('server_error');
    expect(classifyOllamaError(new Error('model not found, connection refused, timeout'))).toBe('unreachable');
  });

  it('keeps the original error as the cause', () => {
    const original = responseError(500);
    expect(translateOllamaError(original, LLM).cause).toBe(original);
  });

  it('passes a RecallError through unchanged', () => {
    const original = new RecallError('LLM_TIMEOUT', 'already translated');
    expect(translateOllamaError(original, LLM)).toBe(original);
  });

  it('maps every embedder failure to EMBEDDER_UNAVAILABLE, keeping the pull fix for a missing model', () => {
    const missing = translateOllamaError(responseError(404), EMBEDDER);
    expect(missing.code).toBe('EMBEDDER_UNAVAILABLE');
    expect(missing.message).toContain('ollama pull nomic-embed-text');
    expect(translateOllamaError(fetchFailed(errnoError('ECONNREFUSED')), EMBEDDER).code).toBe('EMBEDDER_UNAVAILABLE');
    expect(translateOllamaError(new DOMException('t', 'TimeoutError'), EMBEDDER).code).toBe('EMBEDDER_UNAVAILABLE');
  });
});

describe('normalize', () => {
  it('scales a vector to unit length', () => {
    expect(Array.from(normalize([3, 4]))).toEqual([expect.closeTo(0.6, 6), expect.closeTo(0.8, 6)]);
  });

  it('leaves the zero vector as zeros instead of NaN', () => {
    expect(Array.from(normalize([0, 0, 0]))).toEqual([0, 0, 0]);
  });
});
