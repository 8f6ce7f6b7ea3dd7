import { describe, expect, it } from 'vitest';
import { checkEmbedder } from '../../../src/doctor/check-embedder.js';

const ID = 'transformers:Xenova/all-MiniLM-L6-v2';

describe('checkEmbedder', () => {
  it('passes an embedder that embedded a sentence, with the time and dimension', () => {
    expect(checkEmbedder(ID, { state: 'loaded', ms: 412.4, dimension: 384 })).toMatchObject({
      status: 'ok',
      detail: `${ID} embedded a test sentence in 412 ms (384 dimensions)`,
    });
  });

  it('warns when the model is not downloaded yet but downloads are allowed', () => {
    const result = checkEmbedder(ID, { state: 'not-downloaded', folder: '/h/models/Xenova/all-MiniLM-L6-v2' });
    expect(result.status).toBe('warn');
    expect(result.fix).toMatch(/\/h\/models\/Xenova\/all-MiniLM-L6-v2/);
  });

  it('fails with the fix the embedder error carries', () => {
    const message = 'Embedding model Xenova/x is not available (missing config.json). Fix: put the model files in /m/Xenova/x; or set embedder.allowDownload to true.';
    const result = checkEmbedder(ID, { state: 'failed', message });
    expect(result).toMatchObject({
      status: 'fail',
      detail: 'Embedding model Xenova/x is not available (missing config.json)',
      fix: 'put the model files in /m/Xenova/x; or set embedder.allowDownload to true',
    });
  });

  it('fails with a generic fix when the error carries none', () => {
    const result = checkEmbedder('ollama:nomic-embed-text', { state: 'failed', message: 'Cannot reach Ollama at http://h:1' });
    expect(result.status).toBe('fail');
    expect(result.fix).toMatch(/recall config set embedder\.id hash/);
  });
});
