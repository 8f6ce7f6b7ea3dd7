/**
 * Turns an embedder spec (`transformers:<model id or folder>`, `ollama:<model>`, `hash[:<dim>]`) into an
 * Embedder. Adapters load on the first embed call, so creating one costs no import time.
 */
import { RecallError } from '../core/errors.js';
import type { Embedder } from '../core/ports.js';
import { DEFAULT_HASH_DIM, createHashEmbedder } from '../embed/hash-embedder.js';

export interface EmbedderContext {
  /** RECALL_HOME/models: local model root and download cache for the transformers embedder. */
  modelsDir: string;
  allowDownload: boolean;
  ollamaHost: string;
  timeoutMs: number;
}

export type EmbedderSpec =
  | { provider: 'transformers'; model: string }
  | { provider: 'ollama'; model: string }
  | { provider: 'hash'; dim: number };

const SPEC_HELP = 'use transformers:<model id or absolute folder>, ollama:<model> or hash[:<dim>]';

/** Parses a spec without loading anything; throws RecallError CONFIG_INVALID on a bad one. */
export function parseEmbedderSpec(spec: string): EmbedderSpec {
  const colon = spec.indexOf(':');
  const provider = colon === -1 ? spec : spec.slice(0, colon);
  const rest = colon === -1 ? '' : spec.slice(colon + 1);
  switch (provider) {
    case 'hash': {
      if (colon === -1) return { provider: 'hash', dim: DEFAULT_HASH_DIM };
      if (!/^\d+$/.test(rest) || Number(rest) < 1) throw invalid(spec, 'hash dimension must be a positive integer');
      return { provider: 'hash', dim: Number(rest) };
    }
    case 'transformers':
    case 'ollama':
      if (rest.trim() === '' || rest !== rest.trim()) throw invalid(spec, `${provider} needs a model name`);
      return { provider, model: rest };
    default:
      throw invalid(spec, `unknown provider "${provider}"`);
  }
}

/** The id an embedder records with the vectors it makes (`hash` -> `hash:384`); throws on a bad spec. */
export function canonicalEmbedderId(spec: string): string {
  const parsed = parseEmbedderSpec(spec);
  return parsed.provider === 'hash' ? `hash:${parsed.dim}` : `${parsed.provider}:${parsed.model}`;
}

export function createEmbedder(spec: string, ctx: EmbedderContext): Embedder {
  const parsed = parseEmbedderSpec(spec);
  switch (parsed.provider) {
    case 'hash':
      return createHashEmbedder(parsed.dim);
    case 'transformers':
      return lazyEmbedder(`transformers:${parsed.model}`, async () => {
        const { createTransformersEmbedder } = await import('../adapters/transformers-embedder.js');
        return createTransformersEmbedder({ model: parsed.model, modelsDir: ctx.modelsDir, allowDownload: ctx.allowDownload });
      });
    case 'ollama':
      return lazyEmbedder(`ollama:${parsed.model}`, async () => {
        const { createOllamaEmbedder } = await import('../adapters/ollama-embedder.js');
        return createOllamaEmbedder({ host: ctx.ollamaHost, model: parsed.model, timeoutMs: ctx.timeoutMs });
      });
  }
}

/** An Embedder with a known id whose implementation is imported on the first embed call. */
function lazyEmbedder(id: string, load: () => Promise<Embedder>): Embedder {
  let inner: Promise<Embedder> | null = null;
  return {
    id,
    async embed(texts) {
      inner ??= load().catch((err: unknown) => {
        inner = null;
        throw err;
      });
      return (await inner).embed(texts);
    },
  };
}

function invalid(spec: string, reason: string): RecallError {
  return new RecallError('CONFIG_INVALID', `Invalid embedder "${spec}": ${reason}; ${SPEC_HELP}.`);
}
