/** One way to build the `ollama` client: bounded in time, and never printing to stdout. */
import { Ollama } from 'ollama';
import { RecallError } from '../core/errors.js';

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
  let error = text.trim() || `${response.status} ${response.statusText}`.trim();
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed !== null && typeof parsed === 'object' && typeof (parsed as { error?: unknown }).error === 'string') {
      error = (parsed as { error: string }).error;
    }
  } catch {
    // Not JSON: keep the text as the error.
  }
  return new Response(JSON.stringify({ error }), {
    status: response.status,
    statusText: response.statusText,
    headers: { 'Content-Type': 'application/json' },
  });
}

export function createOllamaClient({ host, timeoutMs }: OllamaConnection): Ollama {
  try {
    return new Ollama({ host, fetch: boundedFetch(timeoutMs) });
  } catch (err) {
    // The constructor parses the host with `new URL` (TypeError, code ERR_INVALID_URL).
    throw new RecallError('CONFIG_INVALID', `ollama host '${host}' is not a valid URL`, { cause: err });
  }
}
