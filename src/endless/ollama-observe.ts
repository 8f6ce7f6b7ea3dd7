/**
 * One non-streamed chat for an observation, through recall's one Ollama client and its one error
 * translation (the same as capture's), within the caller's deadline.
 */
import { createOllamaHttpClient } from '../adapters/ollama-http-client.js';
import type { HttpTransport } from '../adapters/http-text-request.js';
import { translateOllamaError } from '../adapters/translate-ollama-error.js';
import { RecallError } from '../core/errors.js';
import { OBSERVATION_JSON_SCHEMA, parseObservationAnswer, type Observation } from './observation.js';
import type { ObservationPrompt } from './observation-prompt.js';

export interface ObserveRequest {
  host: string;
  model: string;
  prompt: ObservationPrompt;
  /** Upper bound for the whole call, body included. */
  timeoutMs: number;
  /** The HTTP transport; tests hand in a double. */
  transport?: HttpTransport;
}

export type ObserveFn = (request: ObserveRequest) => Promise<Observation>;

/** Answers larger than this fail as bad output (an observation is a few kB). */
const MAX_OBSERVATION_RESPONSE_BYTES = 4 * 1024 * 1024;

export const requestObservation: ObserveFn = async ({ host, model, prompt, timeoutMs, transport }) => {
  const client = createOllamaHttpClient({ host, timeoutMs, maxResponseBytes: MAX_OBSERVATION_RESPONSE_BYTES, ...(transport ? { transport } : {}) });
  let response: unknown;
  try {
    response = await client.chat({
      model,
      messages: [
        { role: 'system', content: prompt.system },
        { role: 'user', content: prompt.user },
      ],
      format: OBSERVATION_JSON_SCHEMA,
      options: { temperature: 0, num_ctx: prompt.numCtx },
    });
  } catch (err) {
    throw translateOllamaError(err, { role: 'llm', host, model, timeoutMs });
  }
  const content = (response as { message?: { content?: unknown } } | null)?.message?.content;
  if (typeof content !== 'string') throw new RecallError('LLM_BAD_OUTPUT', `Ollama answered without message content (model '${model}')`);
  const parsed = parseObservationAnswer(content);
  if (!parsed.ok) throw new RecallError('LLM_BAD_OUTPUT', `the model's observation is unusable: ${parsed.problem}`);
  return parsed.observation;
};
