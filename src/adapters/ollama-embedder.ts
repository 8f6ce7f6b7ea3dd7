/** The `Embedder` port on Ollama's `/api/embed`. */
import { RecallError } from '../core/errors.js';
import type { Embedder } from '../core/ports.js';
import { createOllamaClient } from './ollama-client.js';
import type { OllamaConnection } from './ollama-client.js';
import { translateOllamaError } from './translate-ollama-error.js';

export interface OllamaEmbedderOptions extends OllamaConnection {
  model: string;
  /** Texts per `/api/embed` call. */
  batchSize?: number;
}

export const DEFAULT_EMBED_BATCH = 32;

/**
 * Embeds in batches and returns L2-normalised Float32Arrays, one per text, all of one dimension.
 * A zero vector from the server stays the zero vector (normalising it would give NaN); its
 * similarity to anything is 0, so it never counts as a duplicate.
 * Every failure is EMBEDDER_UNAVAILABLE; the message says which (model missing with the
 * `ollama pull` fix, unreachable, timeout, bad answer).
 */
export function createOllamaEmbedder({ host, model, timeoutMs, batchSize = DEFAULT_EMBED_BATCH }: OllamaEmbedderOptions): Embedder {
  const client = createOllamaClient({ host, timeoutMs });
  const context = { role: 'embedder', host, model, timeoutMs } as const;
  const size = Math.max(1, Math.floor(batchSize));

  const badAnswer = (why: string) => new RecallError('EMBEDDER_UNAVAILABLE', `Ollama embed answer for '${model}' ${why}`);

  return {
    id: `ollama:${model}`,
    async embed(texts: readonly string[]): Promise<Float32Array[]> {
      const vectors: Float32Array[] = [];
      let dimension: number | undefined;
      for (let start = 0; start < texts.length; start += size) {
        const batch = texts.slice(start, start + size);
        let response: unknown;
        try {
          response = await client.embed({ model, input: batch });
        } catch (err) {
          throw translateOllamaError(err, context);
        }
        const embeddings = (response as { embeddings?: unknown } | null)?.embeddings;
        if (!Array.isArray(embeddings) || embeddings.length !== batch.length) {
          throw badAnswer(`has ${Array.isArray(embeddings) ? embeddings.length : 'no'} vectors for ${batch.length} texts`);
        }
        for (const raw of embeddings) {
          if (!isNumberArray(raw) || raw.length === 0) throw badAnswer('contains a vector that is not a list of finite numbers');
          dimension ??= raw.length;
          if (raw.length !== dimension) throw badAnswer(`mixes dimensions ${dimension} and ${raw.length}`);
          vectors.push(normalize(raw));
        }
      }
      return vectors;
    },
  };
}

function isNumberArray(value: unknown): value is number[] {
  return Array.isArray(value) && value.every((x) => typeof x === 'number' && Number.isFinite(x));
}

/** Unit length, or the zero vector unchanged. */
export function normalize(values: readonly number[]): Float32Array {
  let sum = 0;
  for (const x of values) sum += x * x;
  const norm = Math.sqrt(sum);
  const out = new Float32Array(values.length);
  if (norm === 0) return out;
  for (let i = 0; i < values.length; i++) out[i] = (values[i] ?? 0) / norm;
  return out;
}
