/** The `Llm` port on a local Ollama server, plus the model checks `doctor` needs. */
import { RecallError } from '../core/errors.js';
import type { ChatRequest, Llm, LlmUsage } from '../core/ports.js';
import { createOllamaClient } from './ollama-client.js';
import type { OllamaConnection } from './ollama-client.js';
import { translateOllamaError } from './translate-ollama-error.js';

export interface OllamaLlmOptions extends OllamaConnection {
  model: string;
  /** Told the server's figures of each answer (`recall eval` sums them into tokens per second). */
  onUsage?: (usage: LlmUsage) => void;
}

/**
 * Non-streamed chat with `temperature: 0`, `options.num_ctx` from the request and `format` set to
 * the request's JSON schema when it has one. Failures become RecallError: 404 -> LLM_MODEL_MISSING
 * (with the `ollama pull` fix), 400 or a non-JSON body -> LLM_BAD_OUTPUT, timeout -> LLM_TIMEOUT,
 * anything else (no server, 5xx) -> LLM_UNAVAILABLE.
 */
export function createOllamaLlm({ host, model, timeoutMs, onUsage }: OllamaLlmOptions): Llm {
  const client = createOllamaClient({ host, timeoutMs });
  const context = { role: 'llm', host, model, timeoutMs } as const;
  return {
    model,
    async chat(request: ChatRequest): Promise<string> {
      const messages = [
        ...(request.system ? [{ role: 'system', content: request.system }] : []),
        { role: 'user', content: request.prompt },
      ];
      let response: unknown;
      try {
        response = await client.chat({
          model,
          messages,
          ...(request.schema ? { format: request.schema } : {}),
          options: { num_ctx: request.numCtx, temperature: 0 },
        });
      } catch (err) {
        throw translateOllamaError(err, context);
      }
      if (onUsage) onUsage(readUsage(response));
      const content = (response as { message?: { content?: unknown } } | null)?.message?.content;
      if (typeof content !== 'string') {
        throw new RecallError('LLM_BAD_OUTPUT', `Ollama answered without message content (model '${model}')`);
      }
      return content;
    },
  };
}

/** Ollama's counts (tokens) and durations (nanoseconds) of an answer; a missing figure is 0. */
function readUsage(response: unknown): LlmUsage {
  const figure = (name: string): number => {
    const value = (response as Record<string, unknown> | null)?.[name];
    return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : 0;
  };
  return {
    promptTokens: figure('prompt_eval_count'),
    promptSeconds: figure('prompt_eval_duration') / 1e9,
    outputTokens: figure('eval_count'),
    outputSeconds: figure('eval_duration') / 1e9,
  };
}

/** The memory `model` takes while loaded (`/api/ps`), or null when it is not loaded or the server does not say. */
export async function loadedModelMemory(host: string, model: string, timeoutMs = 5_000): Promise<{ bytes: number; vramBytes: number } | null> {
  const client = createOllamaClient({ host, timeoutMs });
  try {
    const wanted = withTag(model);
    const found = (await client.running()).find((m) => withTag(m.name) === wanted);
    return found === undefined ? null : { bytes: found.bytes, vramBytes: found.vramBytes };
  } catch {
    // An older server without /api/ps, or one gone: memory is a figure the comparison can do without.
    return null;
  }
}

/** Names of the models installed on the server, as `/api/tags` lists them (`name:tag`). */
export async function listModels(host: string, timeoutMs = 5_000): Promise<string[]> {
  const client = createOllamaClient({ host, timeoutMs });
  try {
    return await client.list();
  } catch (err) {
    throw translateOllamaError(err, { role: 'llm', host, model: '(list)', timeoutMs });
  }
}

/** Whether `model` is installed; a name without a tag means `:latest`, as in the ollama CLI. */
export async function ollamaModelAvailable(host: string, model: string, timeoutMs = 5_000): Promise<boolean> {
  const wanted = withTag(model);
  return (await listModels(host, timeoutMs)).some((name) => withTag(name) === wanted);
}

function withTag(name: string): string {
  const last = name.slice(name.lastIndexOf('/') + 1);
  return last.includes(':') ? name : `${name}:latest`;
}
