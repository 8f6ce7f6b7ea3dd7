/**
 * The Ollama client of capture, the embedder and doctor: the `ollama` package, bounded in time and
 * never printing to stdout, behind OllamaClient (ollama-http-client.ts has the same calls over
 * node:http for the PostToolUse hook, which loads no package). Failures are thrown as the package
 * throws them (a ResponseError with its numeric status_code, fetch's errors); translate-ollama-error.ts
 * reads both clients' alike.
 */
import { Ollama } from 'ollama';
import { RecallError } from '../core/errors.js';
import { isObject } from '../core/is-object.js';
import { readRunningModels, serverReason, type OllamaClient } from './ollama-http-client.js';

export interface OllamaConnection {
  /** Base URL, e.g. `http://127.0.0.1:11434` (the client does not read OLLAMA_HOST itself). */
  host: string;
  /** Upper bound for one request, body included. */
  timeoutMs: number;
}

/**
 * A fetch that (1) aborts after `timeoutMs` — the client passes no signal on non-streamed calls —
 * and (2) hands the client every error response as JSON `{"error": ...}`. The client's own error
 * path `console.log`s when an error body is not JSON (a proxy's HTML 502, say), which would corrupt
 * a hook's stdout.
 */
export function boundedFetch(timeoutMs: number, baseFetch: typeof fetch = fetch): typeof fetch {
  return async (input, init) => {
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = init?.signal ? AbortSignal.any([init.signal, timeout]) : timeout;
    const response = await baseFetch(input, { ...init, signal });
    if (response.ok) return response;
    return jsonErrorResponse(response);
  };
}

async function jsonErrorResponse(response: Response): Promise<Response> {
  const text = await response.text();
  const error = text.trim() === '' ? `${response.status} ${response.statusText}`.trim() : serverReason(response.status, text);
  return new Response(JSON.stringify({ error }), {
    status: response.status,
    statusText: response.statusText,
    headers: { 'Content-Type': 'application/json' },
  });
}

export function createOllamaClient({ host, timeoutMs }: OllamaConnection): OllamaClient {
  let ollama: Ollama;
  try {
    ollama = new Ollama({ host, fetch: boundedFetch(timeoutMs) });
  } catch (err) {
    // The constructor parses the host with `new URL` (TypeError, code ERR_INVALID_URL).
    throw new RecallError('CONFIG_INVALID', `ollama host '${host}' is not a valid URL`, { cause: err });
  }
  return {
    chat: ({ model, messages, format, options }) =>
      ollama.chat({ model, messages: [...messages], stream: false, ...(format ? { format: { ...format } } : {}), ...(options ? { options: { ...options } } : {}) }),
    embed: ({ model, input }) => ollama.embed({ model, input: [...input] }),
    async list() {
      const answer: unknown = await ollama.list();
      const models = isObject(answer) ? answer.models : undefined;
      if (!Array.isArray(models)) throw new SyntaxError('the model list has no models array');
      return models.flatMap((m: unknown) => (isObject(m) && typeof m.name === 'string' ? [m.name] : []));
    },
    async version() {
      const answer: unknown = await ollama.version();
      return isObject(answer) && typeof answer.version === 'string' ? answer.version : null;
    },
    running: async () => readRunningModels(await ollama.ps()),
  };
}
