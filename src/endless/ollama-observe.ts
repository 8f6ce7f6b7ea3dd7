/**
 * One `POST /api/chat` for an observation, with node:http and a deadline (see post-json.ts for why
 * not fetch). The `ollama` client is not used here: its import alone would eat a large part of the
 * hook's budget, and its non-streamed calls take no abort signal. Failures become RecallError by
 * status, error name or errno code, never by message text.
 */
import { RecallError } from '../core/errors.js';
import { OBSERVATION_JSON_SCHEMA, parseObservationAnswer, type Observation } from './observation.js';
import type { ObservationPrompt } from './observation-prompt.js';
import { RESPONSE_TOO_LARGE, postJson, type PostJson } from './post-json.js';

export interface ObserveRequest {
  host: string;
  model: string;
  prompt: ObservationPrompt;
  /** Upper bound for the whole call, body included. */
  timeoutMs: number;
  /** The HTTP transport; tests hand in a double. */
  post?: PostJson;
}

export type ObserveFn = (request: ObserveRequest) => Promise<Observation>;

export const requestObservation: ObserveFn = async ({ host, model, prompt, timeoutMs, post = postJson }) => {
  const signal = AbortSignal.timeout(Math.max(1, Math.floor(timeoutMs)));
  const body = JSON.stringify({
    model,
    messages: [
      { role: 'system', content: prompt.system },
      { role: 'user', content: prompt.user },
    ],
    format: OBSERVATION_JSON_SCHEMA,
    stream: false,
    options: { temperature: 0, num_ctx: prompt.numCtx },
  });
  let text: string;
  let status: number;
  try {
    ({ status, text } = await post(`${host}/api/chat`, body, signal));
  } catch (err) {
    throw translateTransportError(err, host, model, timeoutMs);
  }
  if (status === 404) throw new RecallError('LLM_MODEL_MISSING', `Ollama at ${host} does not have the model '${model}'. Fix: ollama pull ${model}`);
  if (status === 400) throw new RecallError('LLM_BAD_OUTPUT', `Ollama rejected the observation request for '${model}' (HTTP 400)`);
  if (status < 200 || status >= 300) throw new RecallError('LLM_UNAVAILABLE', `Ollama at ${host} failed (HTTP ${status})`);
  let content: unknown;
  try {
    content = (JSON.parse(text) as { message?: { content?: unknown } } | null)?.message?.content;
  } catch (err) {
    throw new RecallError('LLM_BAD_OUTPUT', `Ollama at ${host} answered with a body that is not JSON`, { cause: err });
  }
  if (typeof content !== 'string') throw new RecallError('LLM_BAD_OUTPUT', `Ollama answered without message content (model '${model}')`);
  const parsed = parseObservationAnswer(content);
  if (!parsed.ok) throw new RecallError('LLM_BAD_OUTPUT', `the model's observation is unusable: ${parsed.problem}`);
  return parsed.observation;
};

function translateTransportError(err: unknown, host: string, model: string, timeoutMs: number): RecallError {
  if (err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError')) {
    return new RecallError('LLM_TIMEOUT', `Ollama at ${host} did not answer within ${timeoutMs} ms (model '${model}')`, { cause: err });
  }
  const code = errorCode(err);
  if (code === RESPONSE_TOO_LARGE) return new RecallError('LLM_BAD_OUTPUT', `Ollama at ${host} answered with more than an observation could hold`, { cause: err });
  if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') {
    return new RecallError('LLM_TIMEOUT', `Ollama at ${host} did not answer in time (model '${model}')`, { cause: err });
  }
  return new RecallError('LLM_UNAVAILABLE', `Cannot reach Ollama at ${host}${code ? ` (${code})` : ''}. Is it running? Start it with: ollama serve`, { cause: err });
}

/** The first errno-style `code` along the cause chain (the adapters have the same; the hook path stays out of adapters/). */
function errorCode(err: unknown): string | undefined {
  for (let current: unknown = err, depth = 0; current !== null && typeof current === 'object' && depth < 5; depth += 1) {
    const { code, cause } = current as { code?: unknown; cause?: unknown };
    if (typeof code === 'string') return code;
    current = cause;
  }
  return undefined;
}
