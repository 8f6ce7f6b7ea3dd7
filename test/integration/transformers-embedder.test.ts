import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTransformersEmbedder } from '../../src/adapters/transformers-embedder.js';
import { isRecallError } from '../../src/core/errors.js';
import { buildTinyModel } from '../support/tiny-model.js';

const DIM = 48;

function norm(vector: Float32Array): number {
  return Math.sqrt(vector.reduce((sum, value) => sum + value * value, 0));
}

function cosine(a: Float32Array, b: Float32Array): number {
  return a.reduce((sum, value, i) => sum + value * (b[i] ?? 0), 0);
}

describe('createTransformersEmbedder with a tiny local model', () => {
  let modelsDir: string;
  let otherRoot: string;
  let modelId: string;
  let folder: string;

  beforeAll(async () => {
    modelsDir = await mkdtemp(join(tmpdir(), 'recall-models-'));
    otherRoot = await mkdtemp(join(tmpdir(), 'recall-folder-'));
    const started = performance.now();
    ({ modelId } = await buildTinyModel(modelsDir, { dim: DIM }));
    // Same weights, stored as the full-precision file only, in a folder outside modelsDir.
    ({ dir: folder } = await buildTinyModel(otherRoot, { org: 'vendor', name: 'tiny-full', dim: DIM, quantized: false }));
    console.log(`tiny model: built twice in ${(performance.now() - started).toFixed(0)} ms`);
  });

  afterAll(async () => {
    await rm(modelsDir, { recursive: true, force: true });
    await rm(otherRoot, { recursive: true, force: true });
  });

  it('loads a model by id from modelsDir and embeds a batch into unit vectors', async () => {
    const embedder = createTransformersEmbedder({ model: modelId, modelsDir, allowDownload: false });
    expect(embedder.id).toBe(`transformers:${modelId}`);

    const texts = Array.from({ length: 40 }, (_, i) => `run the tests number ${i} before you commit the code`);
    let started = performance.now();
    await embedder.embed(['warm up']);
    const firstCall = performance.now() - started;
    started = performance.now();
    const vectors = await embedder.embed(texts);
    const perSentence = (performance.now() - started) / texts.length;
    console.log(`tiny model: import + load + 1 sentence ${firstCall.toFixed(0)} ms, then ${perSentence.toFixed(2)} ms per sentence (batch of 40)`);

    expect(vectors).toHaveLength(40);
    for (const vector of vectors) {
      expect(vector).toBeInstanceOf(Float32Array);
      expect(vector).toHaveLength(DIM);
      expect(norm(vector)).toBeCloseTo(1, 4);
    }
  });

  it('gives the same vector for the same text, alone or in a padded batch', async () => {
    const embedder = createTransformersEmbedder({ model: modelId, modelsDir, allowDownload: false });
    const [alone] = await embedder.embed(['prefer pnpm over npm']);
    const [inBatch, again] = await embedder.embed(['prefer pnpm over npm', 'prefer pnpm over npm in every project we build today']);
    const [repeat] = await embedder.embed(['prefer pnpm over npm']);
    if (!alone || !inBatch || !again || !repeat) throw new Error('expected vectors');
    expect(Array.from(repeat)).toEqual(Array.from(alone));
    for (let i = 0; i < DIM; i += 1) expect(inBatch[i]).toBeCloseTo(alone[i] ?? Number.NaN, 5);
  });

  it('places texts that share words closer than unrelated ones', async () => {
    const embedder = createTransformersEmbedder({ model: modelId, modelsDir, allowDownload: false });
    const [query, similar, unrelated] = await embedder.embed([
      'always run the tests before a commit',
      'run the tests before every commit',
      'my dog likes sunny weather',
    ]);
    if (!query || !similar || !unrelated) throw new Error('expected vectors');
    expect(cosine(query, similar)).toBeGreaterThan(cosine(query, unrelated));
  });

  it('returns a zero vector, not NaN, for a text of only unknown tokens', async () => {
    const embedder = createTransformersEmbedder({ model: modelId, modelsDir, allowDownload: false });
    const [unknown, known] = await embedder.embed(['ωψξ ζηθ', 'hello world']);
    if (!unknown || !known) throw new Error('expected vectors');
    expect(unknown).toHaveLength(DIM);
    expect(unknown.every((value) => value === 0)).toBe(true);
    expect(norm(known)).toBeCloseTo(1, 4);
  });

  it('loads a model from an absolute folder path with only onnx/model.onnx', async () => {
    const byFolder = createTransformersEmbedder({ model: folder, modelsDir, allowDownload: false });
    const byId = createTransformersEmbedder({ model: modelId, modelsDir, allowDownload: false });
    expect(byFolder.id).toBe(`transformers:${folder}`);
    const started = performance.now();
    const [fromFolder] = await byFolder.embed(['keep commits small']);
    console.log(`tiny model: load from folder + 1 sentence ${(performance.now() - started).toFixed(0)} ms`);
    const [fromId] = await byId.embed(['keep commits small']);
    if (!fromFolder || !fromId) throw new Error('expected vectors');
    expect(fromFolder).toHaveLength(DIM);
    expect(norm(fromFolder)).toBeCloseTo(1, 4);
    // Same seed and dimension: the two files hold the same weights.
    for (let i = 0; i < DIM; i += 1) expect(fromFolder[i]).toBeCloseTo(fromId[i] ?? Number.NaN, 6);
  });

  it('fails fast with EMBEDDER_UNAVAILABLE and the expected layout when a model is missing and downloads are off', async () => {
    const embedder = createTransformersEmbedder({ model: 'Xenova/all-MiniLM-L6-v2', modelsDir, allowDownload: false });
    const err = await embedder.embed(['text']).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isRecallError(err, 'EMBEDDER_UNAVAILABLE')).toBe(true);
    const message = (err as Error).message;
    expect(message).toContain(join(modelsDir, 'Xenova', 'all-MiniLM-L6-v2'));
    expect(message).toContain('onnx/model_quantized.onnx');
    expect(message).toContain('allowDownload');
  });

  it('never downloads for an absolute folder path, even with downloads on', async () => {
    const embedder = createTransformersEmbedder({ model: join(otherRoot, 'no', 'such-model'), modelsDir, allowDownload: true });
    await expect(embedder.embed(['text'])).rejects.toMatchObject({ code: 'EMBEDDER_UNAVAILABLE' });
  });

  it('reports a corrupt model file as EMBEDDER_UNAVAILABLE', async () => {
    const { dir } = await buildTinyModel(modelsDir, { org: 'broken', name: 'tiny', dim: DIM });
    await writeFile(join(dir, 'onnx', 'model_quantized.onnx'), 'not an onnx file');
    const embedder = createTransformersEmbedder({ model: 'broken/tiny', modelsDir, allowDownload: false });
    await expect(embedder.embed(['text'])).rejects.toMatchObject({ code: 'EMBEDDER_UNAVAILABLE' });
  });

  it('rejects a relative model path that climbs out of modelsDir', () => {
    expect(() => createTransformersEmbedder({ model: '../etc/model', modelsDir, allowDownload: false })).toThrow(
      expect.objectContaining({ code: 'CONFIG_INVALID' }),
    );
  });
});

/** A Hugging Face hub double on 127.0.0.1 serving `<id>/resolve/main/<file>` from a folder of tiny models. */
async function startHub(hubRoot: string): Promise<{ url: string; requests: string[]; close: () => Promise<void> }> {
  const requests: string[] = [];
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://hub').pathname);
    requests.push(path);
    const match = /^\/(.+?)\/resolve\/main\/(.+)$/.exec(path);
    const file = match ? join(hubRoot, match[1] ?? '', match[2] ?? '') : '';
    readFile(file).then(
      (body) => res.writeHead(200, { 'content-length': body.length }).end(body),
      () => res.writeHead(404).end('not found'),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('createTransformersEmbedder downloading into modelsDir', () => {
  let hubRoot: string;
  let hub: Awaited<ReturnType<typeof startHub>>;
  let transformersEnv: { remoteHost: string };
  let originalHost: string;

  beforeAll(async () => {
    hubRoot = await mkdtemp(join(tmpdir(), 'recall-hub-'));
    await buildTinyModel(hubRoot, { org: 'hub', name: 'quantized', dim: DIM });
    await buildTinyModel(hubRoot, { org: 'hub', name: 'full-only', dim: DIM, quantized: false });
    hub = await startHub(hubRoot);
    ({ env: transformersEnv } = (await import('@xenova/transformers')) as unknown as { env: { remoteHost: string } });
    originalHost = transformersEnv.remoteHost;
    transformersEnv.remoteHost = hub.url;
  });

  afterAll(async () => {
    transformersEnv.remoteHost = originalHost;
    await hub.close();
    await rm(hubRoot, { recursive: true, force: true });
  });

  it('downloads a model once into <modelsDir>/<id> and then loads it with downloads off', async () => {
    const modelsDir = await mkdtemp(join(tmpdir(), 'recall-models-'));
    const online = createTransformersEmbedder({ model: 'hub/quantized', modelsDir, allowDownload: true });
    const [downloaded] = await online.embed(['cache the model locally']);
    for (const file of ['config.json', 'tokenizer.json', 'tokenizer_config.json', 'onnx/model_quantized.onnx']) {
      expect(existsSync(join(modelsDir, 'hub', 'quantized', file)), file).toBe(true);
    }
    const requestsAfterDownload = hub.requests.length;
    const offline = createTransformersEmbedder({ model: 'hub/quantized', modelsDir, allowDownload: false });
    const [local] = await offline.embed(['cache the model locally']);
    expect(hub.requests.length).toBe(requestsAfterDownload);
    expect(Array.from(local ?? [])).toEqual(Array.from(downloaded ?? []));
    await rm(modelsDir, { recursive: true, force: true });
  });

  it('falls back to onnx/model.onnx when the hub has no quantized file', async () => {
    const modelsDir = await mkdtemp(join(tmpdir(), 'recall-models-'));
    const embedder = createTransformersEmbedder({ model: 'hub/full-only', modelsDir, allowDownload: true });
    const [vector] = await embedder.embed(['keep commits small']);
    expect(norm(vector ?? new Float32Array())).toBeCloseTo(1, 4);
    expect(existsSync(join(modelsDir, 'hub', 'full-only', 'onnx', 'model.onnx'))).toBe(true);
    await rm(modelsDir, { recursive: true, force: true });
  });

  it('reports an unknown model on the hub as EMBEDDER_UNAVAILABLE', async () => {
    const modelsDir = await mkdtemp(join(tmpdir(), 'recall-models-'));
    const embedder = createTransformersEmbedder({ model: 'hub/no-such-model', modelsDir, allowDownload: true });
    const err = await embedder.embed(['text']).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isRecallError(err, 'EMBEDDER_UNAVAILABLE')).toBe(true);
    expect((err as Error).message).toContain('could not be downloaded');
    await rm(modelsDir, { recursive: true, force: true });
  });

  it('reports an unreachable hub as EMBEDDER_UNAVAILABLE', async () => {
    const modelsDir = await mkdtemp(join(tmpdir(), 'recall-models-'));
    const closed = await startHub(hubRoot);
    await closed.close(); // a port nothing listens on any more
    transformersEnv.remoteHost = closed.url;
    try {
      const embedder = createTransformersEmbedder({ model: 'hub/quantized', modelsDir, allowDownload: true });
      await expect(embedder.embed(['text'])).rejects.toMatchObject({ code: 'EMBEDDER_UNAVAILABLE' });
    } finally {
      transformersEnv.remoteHost = hub.url;
      await rm(modelsDir, { recursive: true, force: true });
    }
  });
});
