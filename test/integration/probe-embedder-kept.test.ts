/**
 * The health page's embedder check embeds with a model it keeps: a second look embeds again (the check stays
 * live) without loading the model again.
 */
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { createEmbedder } from '../../src/app/create-embedder.js';
import { configSchema } from '../../src/config/schema.js';
import { statePaths } from '../../src/core/state-paths.js';
import { keepEmbedders, probeEmbedder, type MakeEmbedder } from '../../src/doctor/probe-services.js';
import { buildTinyModelInTempDir } from '../support/tiny-model.js';

const roots: string[] = [];
afterAll(() => roots.forEach((root) => rmSync(root, { recursive: true, force: true })));

describe('keepEmbedders', () => {
  it('loads the real model once over two checks, and both embed', async () => {
    const model = await buildTinyModelInTempDir();
    roots.push(model.root);
    const config = configSchema.parse({ embedder: { id: `transformers:${model.modelId}` } });
    const paths = { ...statePaths(model.root), modelsDir: model.root };
    let made = 0;
    let embedded = 0;
    const counting: MakeEmbedder = (spec, ctx) => {
      made += 1;
      const embedder = createEmbedder(spec, ctx);
      return { ...embedder, embed: (texts) => ((embedded += 1), embedder.embed(texts)) };
    };
    const kept = keepEmbedders(counting);
    const first = await probeEmbedder(config, paths, undefined, kept);
    const second = await probeEmbedder(config, paths, undefined, kept);
    expect(first).toMatchObject({ state: 'loaded', dimension: model.dim });
    expect(second).toMatchObject({ state: 'loaded', dimension: model.dim });
    expect([made, embedded]).toEqual([1, 2]);
  });

  it('makes a new embedder when the settings differ, and keeps nothing between two keepers', () => {
    let made = 0;
    const counting: MakeEmbedder = (spec, ctx) => ((made += 1), createEmbedder(spec, ctx));
    const ctx = { modelsDir: '/m', allowDownload: false, ollamaHost: 'http://127.0.0.1:11434', timeoutMs: 1000 };
    const kept = keepEmbedders(counting);
    expect(kept('hash:64', ctx)).toBe(kept('hash:64', ctx));
    expect(kept('hash:32', ctx)).not.toBe(kept('hash:64', ctx));
    expect(kept('hash:64', { ...ctx, modelsDir: '/n' })).not.toBe(kept('hash:64', ctx));
    expect(keepEmbedders(counting)('hash:64', ctx)).not.toBe(kept('hash:64', ctx));
    expect(made).toBe(4);
  });
});
