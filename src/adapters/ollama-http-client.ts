/**
 * The Ollama client of Endless Mode's PostToolUse hook, which loads node built-ins and core/ only: the
 * calls of OllamaClient (see ollama-client.ts, the `ollama` package's client that capture, the embedder
 * and doctor use) as JSON over node:http, each bounded in time and in size. Measured in that hook
 * (bench/endless-hook-builds.mjs), the `ollama` package cost ~100 ms more per observation with the
 * built-in fetch, and ~14 ms more even folded into the hook with a node:http fetch (its import loads
 * the built-in fetch's machinery all the same).
 * Failures are thrown as they come — an OllamaResponseError for an HTTP error answer, a SyntaxError
 * for a body that is not JSON, the deadline's TimeoutError, a socket error with its errno code — and
 * translate-ollama-error.ts turns each into one RecallError.
 */
import { RecallError } from '../core/errors.js';
import { isObject } from '../core/is-object.js';
import { requestText, type HttpTransport } from './http-text-request.js';

export interface OllamaConnection {
  /** Base URL, e.g. `http://127.0.0.1:11434` (already normalised; the client reads no environment). */
  host: string;
  /** Upper bound for one request, body included. */
  timeoutMs: number;
  /** Answers larger than this fail (code RESPONSE_TOO_LARGE). */
  maxResponseBytes?: number;
  /** The HTTP transport; tests hand in a double. */
  transport?: HttpTransport;
}

/** Large enough for a batch of embeddings of any model's dimension. */
export const DEFAULT_MAX_RESPONSE_BYTES = 64 * 1024 * 1024;

export interface OllamaChatRequest {
  model: string;
  messages: ReadonlyArray<{ role: string; content: string }>;
  /** A JSON schema the answer must follow (structured outputs). */
  format?: Readonly<Record<string, unknown>>;
  options?: Readonly<Record<string, unknown>>;
}

export interface OllamaClient {
  /** `POST /api/chat` with `stream: false`: the answer object, unchecked. */
  chat(request: OllamaChatRequest): Promise<unknown>;
  /** `POST /api/embed`: the answer object, unchecked. */
  embed(request: { model: string; input: readonly string[] }): Promise<unknown>;
  /** `GET /api/tags`: the installed models' names (`name:tag`). */
  list(): Promise<string[]>;
  /** `GET /api/version`: the server's version, or null when it names none. */
  version(): Promise<string | null>;
  /** `GET /api/ps`: the models loaded now, with the memory each takes. */
  running(): Promise<RunningModel[]>;
}

export interface RunningModel {
  name: string;
  /** Bytes the loaded model takes, in all (`size`) and on the GPU (`size_vram`). */
  bytes: number;
  vramBytes: number;
}

/** The models of an `/api/ps` answer; entries without a name or size are left out. */
export function readRunningModels(answer: unknown): RunningModel[] {
  const models = isObject(answer) ? answer.models : undefined;
  if (!Array.isArray(models)) throw new SyntaxError('the running-model list has no models array');
  return models.flatMap((m: unknown) =>
    isObject(m) && typeof m.name === 'string' && typeof m.size === 'number'
      ? [{ name: m.name, bytes: m.size, vramBytes: typeof m.size_vram === 'number' ? m.size_vram : 0 }]
      : [],
  );
}

/**
 * An HTTP error answer. Named `ResponseError` with a numeric `status_code`, like the `ollama`
 * package's, so one translation reads both; `error` is the server's own reason (its JSON `error`
 * field, or the body's text when it is not JSON), for messages only.
 */
export class OllamaResponseError extends Error {
  override readonly name = 'ResponseError';
  readonly error: string;
  readonly status_code: number;

  constructor(error: string, status: number) {
    super(error);
    this.error = error;
    this.status_code = status;
  }
}

export function createOllamaHttpClient({ host, timeoutMs, maxResponseBytes = DEFAULT_MAX_RESPONSE_BYTES, transport = requestText }: OllamaConnection): OllamaClient {
  const base = host.replace(/\/+$/, '');
  if (!URL.canParse(`${base}/api/chat`)) throw new RecallError('CONFIG_INVALID', `ollama host '${host}' is not a valid URL`);
  const call = async (method: 'GET' | 'POST', path: string, body?: unknown): Promise<unknown> => {
    const signal = AbortSignal.timeout(Math.max(1, Math.floor(timeoutMs)));
    const sent = body === undefined ? undefined : JSON.stringify(body);
    const { status, text } = await transport({ method, url: `${base}${path}`, body: sent, signal, maxResponseBytes });
    if (status < 200 || status >= 300) throw new OllamaResponseError(serverReason(status, text), status);
    return JSON.parse(text) as unknown;
  };
  return {
    chat: ({ model, messages, format, options }) => call('POST', '/api/chat', { model, messages, stream: false, ...(format ? { format } : {}), ...(options ? { options } : {}) }),
    embed: ({ model, input }) => call('POST', '/api/embed', { model, input }),
    async list() {
      const answer = await call('GET', '/api/tags');
      const models = isObject(answer) ? answer.models : undefined;
      if (!Array.isArray(models)) throw new SyntaxError('the model list has no models array');
      return models.flatMap((m: unknown) => (isObject(m) && typeof m.name === 'string' ? [m.name] : []));
    },
    async version() {
      const answer = await call('GET', '/api/version');
      return isObject(answer) && typeof answer.version === 'string' ? answer.version : null;
    },
    running: async () => readRunningModels(await call('GET', '/api/ps')),
  };
}

/** The JSON `{"error": ...}` Ollama sends, or the body's text (a proxy's HTML page, say), or the status. */
export function serverReason(status: number, text: string): string {
  try {
    const parsed: unknown = JSON.parse(text);
    if (isObject(parsed) && typeof parsed.error === 'string') return parsed.error;
  } catch {
    // Not JSON: the text is the reason.
  }
  return text.trim() || `HTTP ${status}`;
}
