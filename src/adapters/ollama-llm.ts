/** The `Llm` port on a local Ollama server, plus the model checks `doctor` needs. */
import { RecallError } from '../core/errors.js';
import type { ChatRequest, Llm } from '../core/ports.js';
import { createOllamaClient } from './ollama-client.js';
import type { OllamaConnection } from './ollama-client.js';
import { translateOllamaError } from './translate-ollama-error.js';

export interface OllamaLlmOptions extends OllamaConnection {
  model: string;
}

/**
 * Non-streamed chat with `temperature: 0`, `options.num_ctx` from the request and `format` set to
 * the request's JSON schema when it has one. Failures become RecallError: 404 -> LLM_MODEL_MISSING
 * (with the `ollama pull` fix), 400 or a non-JSON body -> LLM_BAD_OUTPUT, timeout -> LLM_TIMEOUT,
 * anything else (no server, 5xx) -> LLM_UNAVAILABLE.
 */
export function createOllamaLlm({ host, model, timeoutMs }: OllamaLlmOptions): Llm {
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
      const content = (response as { message?: { content?: unknown } } | null)?.message?.content;
      if (typeof content !== 'string') {
        throw new RecallError('LLM_BAD_OUTPUT', `Ollama answered without message content (model '${model}')`);
      }
      return content;
    },
  };
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
