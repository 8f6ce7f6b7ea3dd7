/**
 * The requests a worker-side process (the capture worker, a context refresh, any command that embeds)
 * sends to `recall serve`, and their answers. One JSON line each way, like the command lines; the
 * daemon answers only a client whose configuration matches its own (`expect`), so a daemon started
 * with another embedder or another store is never used.
 */
import type { ContextTarget, RenderedTarget } from '../context/render-targets.js';

/** What must be equal for a daemon to do a client's work: the configured embedder and the store. */
export interface ServeIdentity {
  /** The configured embedder (`embedder.id`), e.g. `transformers:Xenova/all-MiniLM-L6-v2` or `hash`. */
  embedder: string;
  /** A digest of where the memory table lives and how it is kept (see serve-identity.ts). */
  store: string;
}

export interface EmbedRequest {
  v: 1;
  op: 'embed';
  expect: ServeIdentity;
  texts: string[];
}

export interface ContextRequest {
  v: 1;
  op: 'context';
  expect: ServeIdentity;
  targets: ContextTarget[];
  maxChars: number;
  /** ISO time the ages are counted from: the client's clock, so both paths render the same text. */
  now: string;
  /** Days recent changes are named (context.changesDays); absent: the daemon's own config. */
  changesDays?: number;
}

export type WorkerRequest = EmbedRequest | ContextRequest;

/** `refused`: another configuration; `failed`: the daemon could not do it. Either way the client works alone. */
export type RefusedAnswer = { ok: false; reason: 'refused' | 'failed'; message: string };
/** `embedder` is the id the vectors were made with, for the client to check against its own. */
export type EmbedAnswer = { ok: true; embedder: string; count: number; dimension: number; vectors: string } | RefusedAnswer;
export type ContextAnswer = { ok: true; rendered: RenderedTarget[] } | RefusedAnswer;

/**
 * Vectors travel as one base64 block of float32s in the machine's byte order (both ends run on the same
 * machine): exact to the bit, and far smaller than JSON numbers.
 */
export function encodeVectors(vectors: readonly Float32Array[]): { count: number; dimension: number; vectors: string } {
  const dimension = vectors[0]?.length ?? 0;
  const all = new Float32Array(vectors.length * dimension);
  vectors.forEach((vector, i) => all.set(vector, i * dimension));
  return { count: vectors.length, dimension, vectors: Buffer.from(all.buffer, all.byteOffset, all.byteLength).toString('base64') };
}

/** The vectors of an answer, or null when the block does not hold `count` vectors of `dimension`. */
export function decodeVectors(count: number, dimension: number, base64: string): Float32Array[] | null {
  if (!Number.isInteger(count) || !Number.isInteger(dimension) || count < 0 || dimension <= 0) return null;
  const bytes = Buffer.from(base64, 'base64');
  if (bytes.length !== count * dimension * 4) return null;
  const all = new Float32Array(count * dimension);
  new Uint8Array(all.buffer).set(bytes);
  return Array.from({ length: count }, (_, i) => all.slice(i * dimension, (i + 1) * dimension));
}
