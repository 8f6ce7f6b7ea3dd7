import { describe, expect, it } from 'vitest';
import type { Embedder } from '../../../src/core/ports.js';
import { createHashEmbedder } from '../../../src/embed/hash-embedder.js';
import { embedderServedFirst } from '../../../src/serve-client/served-embedder.js';
import { decodeVectors, encodeVectors, type ServeIdentity } from '../../../src/serve-client/serve-protocol.js';
import { startFakeDaemon } from '../../support/fake-daemon.js';
import { useTempDirs } from '../../support/temp-dir.js';

const tempDir = useTempDirs();
const IDENTITY: ServeIdentity = { embedder: 'hash:16', store: 'abc' };
const TEXTS = ['You MUST use pnpm.', 'Store money as integer cents.'];

/** The hash embedder, recording the texts it embeds here. */
function localEmbedder(): Embedder & { embedded: string[] } {
  const inner = createHashEmbedder(16);
  const embedded: string[] = [];
  return {
    id: inner.id,
    embedded,
    embed(texts) {
      embedded.push(...texts);
      return inner.embed(texts);
    },
  };
}

/** What a real `recall serve` with the same embedder answers. */
async function served(request: Record<string, unknown>): Promise<unknown> {
  const vectors = await createHashEmbedder(16).embed(request.texts as string[]);
  return { ok: true, embedder: 'hash:16', ...encodeVectors(vectors) };
}

describe('vectors on the serve socket', () => {
  it('come back bit for bit', () => {
    const vectors = [new Float32Array([0.1, -2.5e-8, Math.PI, 1]), new Float32Array([1e-40, 3, 0, -0])];
    const { count, dimension, vectors: block } = encodeVectors(vectors);
    const decoded = decodeVectors(count, dimension, block)!;
    expect(decoded.map((v) => [...new Uint8Array(v.buffer)])).toEqual(vectors.map((v) => [...new Uint8Array(v.buffer)]));
  });

  it('are refused when the block does not hold what the answer claims', () => {
    const { vectors: block } = encodeVectors([new Float32Array(4)]);
    expect(decodeVectors(2, 4, block)).toBeNull();
    expect(decodeVectors(1, 0, block)).toBeNull();
  });
});

describe('embedderServedFirst', () => {
  it('lets a daemon with the same configuration embed, with the vectors it would make here', async () => {
    const daemon = await startFakeDaemon(tempDir(), served);
    const local = localEmbedder();
    const embedder = embedderServedFirst(local, { socketPath: daemon.socketPath, identity: IDENTITY });
    const vectors = await embedder.embed(TEXTS);
    expect(local.embedded).toEqual([]);
    expect(daemon.requests).toEqual([{ v: 1, op: 'embed', expect: IDENTITY, texts: TEXTS }]);
    expect(vectors).toEqual(await createHashEmbedder(16).embed(TEXTS));
    expect(embedder.id).toBe('hash:16');
    await daemon.close();
  });

  it('embeds here when no daemon runs', async () => {
    const local = localEmbedder();
    const embedder = embedderServedFirst(local, { socketPath: `${tempDir()}/serve.sock`, identity: IDENTITY });
    expect(await embedder.embed(TEXTS)).toEqual(await createHashEmbedder(16).embed(TEXTS));
    expect(local.embedded).toEqual(TEXTS);
  });

  it('embeds here, and stays here, when the daemon dies mid-request', async () => {
    const daemon = await startFakeDaemon(tempDir(), () => 'hang-up');
    const local = localEmbedder();
    const embedder = embedderServedFirst(local, { socketPath: daemon.socketPath, identity: IDENTITY });
    expect(await embedder.embed(TEXTS)).toEqual(await createHashEmbedder(16).embed(TEXTS));
    await embedder.embed(['later']);
    expect(local.embedded).toEqual([...TEXTS, 'later']);
    expect(daemon.requests).toHaveLength(1);
    await daemon.close();
  });

  it.each([
    ['refuses another configuration', { ok: false, reason: 'refused', message: 'recall serve runs with another embedder or store' }],
    ['sends vectors of another embedder', { ok: true, embedder: 'hash:32', ...encodeVectors([new Float32Array(32), new Float32Array(32)]) }],
    ['sends fewer vectors than texts', { ok: true, embedder: 'hash:16', ...encodeVectors([new Float32Array(16)]) }],
    ['answers garbage', '{"ok": tru'],
  ])('embeds here when the daemon %s', async (_, reply) => {
    const daemon = await startFakeDaemon(tempDir(), () => reply);
    const local = localEmbedder();
    const embedder = embedderServedFirst(local, { socketPath: daemon.socketPath, identity: IDENTITY });
    expect(await embedder.embed(TEXTS)).toEqual(await createHashEmbedder(16).embed(TEXTS));
    expect(local.embedded).toEqual(TEXTS);
    await daemon.close();
  });
});
