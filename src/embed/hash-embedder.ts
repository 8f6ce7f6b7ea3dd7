/**
 * A deterministic, dependency-free, lexical-only embedder: feature hashing of lowercased word tokens
 * and character trigrams into signed buckets, L2-normalised. Texts that share words or word pieces
 * land close together; paraphrases with different words do not. It needs no model and no download,
 * which makes it the fallback for demos and offline machines without a model folder.
 */
import { RecallError } from '../core/errors.js';
import type { Embedder } from '../core/ports.js';

export const DEFAULT_HASH_DIM = 384;
export const MAX_HASH_DIM = 8192;

const WORD = /[\p{L}\p{N}_]+/gu;
const WORD_WEIGHT = 1;
const TRIGRAM_WEIGHT = 0.5;

export function createHashEmbedder(dim: number = DEFAULT_HASH_DIM): Embedder {
  if (!Number.isInteger(dim) || dim < 1 || dim > MAX_HASH_DIM) {
    throw new RecallError('CONFIG_INVALID', `Hash embedder dimension must be an integer from 1 to ${MAX_HASH_DIM}, got ${dim}.`);
  }
  return {
    id: `hash:${dim}`,
    embed: (texts) => Promise.resolve(texts.map((text) => hashEmbed(text, dim))),
  };
}

/** The vector of one text; the zero vector when the text has no word characters. */
export function hashEmbed(text: string, dim: number): Float32Array {
  const vector = new Float32Array(dim);
  for (const match of text.toLowerCase().matchAll(WORD)) {
    const word = match[0];
    addFeature(vector, `w:${word}`, WORD_WEIGHT);
    const padded = `#${word}#`;
    for (let i = 0; i + 3 <= padded.length; i += 1) addFeature(vector, `t:${padded.slice(i, i + 3)}`, TRIGRAM_WEIGHT);
  }
  let sumSquares = 0;
  for (const value of vector) sumSquares += value * value;
  if (sumSquares === 0) return vector;
  const scale = 1 / Math.sqrt(sumSquares);
  for (let i = 0; i < dim; i += 1) vector[i] = (vector[i] ?? 0) * scale;
  return vector;
}

function addFeature(vector: Float32Array, feature: string, weight: number): void {
  const hash = fnv1a(feature);
  const bucket = hash % vector.length;
  const sign = hash & 0x80000000 ? -1 : 1; // high bit for the sign, low bits for the bucket
  vector[bucket] = (vector[bucket] ?? 0) + sign * weight;
}

/** 32-bit FNV-1a over UTF-16 code units. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}
