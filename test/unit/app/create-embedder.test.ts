import { describe, expect, it } from 'vitest';
import { canonicalEmbedderId, createEmbedder, parseEmbedderSpec } from '../../../src/app/create-embedder.js';
import { isRecallError } from '../../../src/core/errors.js';
import { errorOf } from '../../support/error-of.js';

const ctx = { modelsDir: '/nonexistent/recall-models', allowDownload: false, ollamaHost: 'http://127.0.0.1:9', timeoutMs: 1000 };

describe('parseEmbedderSpec', () => {
  it('reads hash with and without a dimension', () => {
    expect(parseEmbedderSpec('hash')).toEqual({ provider: 'hash', dim: 384 });
    expect(parseEmbedderSpec('hash:64')).toEqual({ provider: 'hash', dim: 64 });
  });

  it('reads transformers model ids and absolute folders, keeping everything after the first colon', () => {
    expect(parseEmbedderSpec('transformers:Xenova/all-MiniLM-L6-v2')).toEqual({
      provider: 'transformers',
      model: 'Xenova/all-MiniLM-L6-v2',
    });
    expect(parseEmbedderSpec('transformers:/opt/models/mini')).toEqual({ provider: 'transformers', model: '/opt/models/mini' });
  });

  it('reads ollama models with tags', () => {
    expect(parseEmbedderSpec('ollama:nomic-embed-text:latest')).toEqual({ provider: 'ollama', model: 'nomic-embed-text:latest' });
  });

  it('rejects bad specs with CONFIG_INVALID', () => {
    for (const spec of ['', 'openai:text-embedding-3', 'transformers:', 'ollama:', 'ollama: x', 'hash:', 'hash:0', 'hash:abc', 'hash:-3', 'HASH']) {
      const err = errorOf(() => parseEmbedderSpec(spec));
      expect(isRecallError(err, 'CONFIG_INVALID'), spec).toBe(true);
    }
  });
});

describe('createEmbedder', () => {
  it('creates a working hash embedder', async () => {
    const embedder = createEmbedder('hash:16', ctx);
    expect(embedder.id).toBe('hash:16');
    const [vector] = await embedder.embed(['hello world']);
    expect(vector).toHaveLength(16);
  });

  it('names the transformers and ollama embedders after their spec without loading them', () => {
    expect(createEmbedder('transformers:Xenova/all-MiniLM-L6-v2', ctx).id).toBe('transformers:Xenova/all-MiniLM-L6-v2');
    expect(createEmbedder('ollama:nomic-embed-text', ctx).id).toBe('ollama:nomic-embed-text');
  });

  it('throws CONFIG_INVALID for a bad spec or an out-of-range hash dimension', () => {
    expect(isRecallError(errorOf(() => createEmbedder('word2vec', ctx)), 'CONFIG_INVALID')).toBe(true);
    expect(isRecallError(errorOf(() => createEmbedder('hash:100000', ctx)), 'CONFIG_INVALID')).toBe(true);
  });

  it('reports a missing transformers model on first use as EMBEDDER_UNAVAILABLE', async () => {
    const embedder = createEmbedder('transformers:nobody/missing-model', ctx);
    await expect(embedder.embed(['text'])).rejects.toMatchObject({ code: 'EMBEDDER_UNAVAILABLE' });
  });

  it('gives the id an embedder records with its vectors, so a bare hash spec compares equal to hash:384', () => {
    expect(canonicalEmbedderId('hash')).toBe('hash:384');
    expect(canonicalEmbedderId('hash:64')).toBe('hash:64');
    expect(canonicalEmbedderId('transformers:Xenova/all-MiniLM-L6-v2')).toBe('transformers:Xenova/all-MiniLM-L6-v2');
    expect(canonicalEmbedderId('ollama:nomic-embed-text')).toBe('ollama:nomic-embed-text');
    expect(canonicalEmbedderId('hash')).toBe(createEmbedder('hash', ctx).id);
  });
});
