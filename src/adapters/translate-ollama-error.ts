/**
 * Turns whatever an Ollama call threw (see ollama-client.ts) into one RecallError, by HTTP status,
 * errno code or error name — never by message text. The one translation for capture, the embedder,
 * doctor and Endless Mode (the PostToolUse hook too: nothing here but core/ and node built-ins).
 */
import { RecallError } from '../core/errors.js';
import type { RecallErrorCode } from '../core/errors.js';
import { RESPONSE_TOO_LARGE } from './http-text-request.js';

/** What went wrong, independent of who was calling. */
export type OllamaFailure = 'model_missing' | 'rejected' | 'bad_output' | 'too_large' | 'timeout' | 'server_error' | 'unreachable';

export interface OllamaErrorContext {
  /** `llm` maps failures to LLM_* codes; `embedder` maps every failure to EMBEDDER_UNAVAILABLE. */
  role: 'llm' | 'embedder';
  host: string;
  model: string;
  timeoutMs: number;
}

/** Socket codes that mean a timer ran out rather than the server being absent. */
const TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

const LLM_CODES: Readonly<Record<OllamaFailure, RecallErrorCode>> = {
  model_missing: 'LLM_MODEL_MISSING',
  rejected: 'LLM_BAD_OUTPUT',
  bad_output: 'LLM_BAD_OUTPUT',
  too_large: 'LLM_BAD_OUTPUT',
  timeout: 'LLM_TIMEOUT',
  server_error: 'LLM_UNAVAILABLE',
  unreachable: 'LLM_UNAVAILABLE',
};

/** An HTTP error answer (OllamaResponseError), recognised by name and numeric status: a bundled copy of the class is another class. */
export function responseStatus(err: unknown): number | undefined {
  if (!(err instanceof Error) || err.name !== 'ResponseError') return undefined;
  const status = (err as Error & { status_code?: unknown }).status_code;
  return typeof status === 'number' ? status : undefined;
}

/** The first errno-style `code` along the cause chain (fetch wraps socket errors as `TypeError: fetch failed`). */
export function errorCode(err: unknown): string | undefined {
  const seen = new Set<unknown>();
  const queue: unknown[] = [err];
  while (queue.length > 0) {
    const current = queue.shift();
    if (current === null || typeof current !== 'object' || seen.has(current)) continue;
    seen.add(current);
    const { code, cause, errors } = current as { code?: unknown; cause?: unknown; errors?: unknown };
    if (typeof code === 'string') return code;
    queue.push(cause);
    if (Array.isArray(errors)) queue.push(...errors);
  }
  return undefined;
}

export function classifyOllamaError(err: unknown): OllamaFailure {
  const status = responseStatus(err);
  if (status !== undefined) {
    if (status === 404) return 'model_missing';
    if (status === 400) return 'rejected';
    return 'server_error';
  }
  if (err instanceof Error) {
    if (err.name === 'TimeoutError' || err.name === 'AbortError') return 'timeout';
    // A 200 whose body is not JSON: response.json() throws a SyntaxError.
    if (err.name === 'SyntaxError') return 'bad_output';
  }
  const code = errorCode(err);
  if (code !== undefined && TIMEOUT_CODES.has(code)) return 'timeout';
  if (code === RESPONSE_TOO_LARGE) return 'too_large';
  // ECONNREFUSED, ENOTFOUND, ECONNRESET, EAI_AGAIN, "bad port", ... and anything else unforeseen.
  return 'unreachable';
}

export function translateOllamaError(err: unknown, context: OllamaErrorContext): RecallError {
  if (err instanceof RecallError) return err;
  const failure = classifyOllamaError(err);
  const message = describeFailure(failure, err, context);
  const code = context.role === 'llm' ? LLM_CODES[failure] : 'EMBEDDER_UNAVAILABLE';
  return new RecallError(code, message, { cause: err });
}

function describeFailure(failure: OllamaFailure, err: unknown, { host, model, timeoutMs }: OllamaErrorContext): string {
  const status = responseStatus(err);
  const detail = serverDetail(err);
  switch (failure) {
    case 'model_missing':
      return `Ollama at ${host} does not have the model '${model}'. Fix: ollama pull ${model}`;
    case 'rejected':
      return `Ollama rejected the request for '${model}' (HTTP 400)${detail}`;
    case 'bad_output':
      return `Ollama at ${host} answered with a body that is not JSON`;
    case 'too_large':
      return `Ollama at ${host} answered with more than recall reads (model '${model}')`;
    case 'timeout':
      return `Ollama at ${host} did not answer within ${timeoutMs} ms (model '${model}')`;
    case 'server_error':
      return `Ollama at ${host} failed (HTTP ${status ?? '?'})${detail}`;
    case 'unreachable': {
      const code = errorCode(err);
      return `Cannot reach Ollama at ${host}${code ? ` (${code})` : ''}. Is it running? Start it with: ollama serve`;
    }
  }
}

/** The server's own one-line reason, for the message only (never inspected). */
function serverDetail(err: unknown): string {
  if (!(err instanceof Error) || !err.message) return '';
  const line = err.message.split('\n')[0]?.trim() ?? '';
  return line ? `: ${line.slice(0, 200)}` : '';
}
