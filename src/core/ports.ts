/** The small interfaces pipeline stages depend on; adapters implement them, tests hand in doubles. */
import type { CandidateMemory, MemoryOrigin, MemoryRecord } from './memory.js';

export interface ChatRequest {
  system: string;
  prompt: string;
  /** JSON schema for structured output; omitted means free text. */
  schema?: Record<string, unknown>;
  numCtx: number;
}

export interface Llm {
  readonly model: string;
  /** Returns the assistant's text. Throws RecallError (LLM_*) on failure. */
  chat(request: ChatRequest): Promise<string>;
}

export interface Embedder {
  /** Stable identity recorded with the vectors, e.g. `transformers:Xenova/all-MiniLM-L6-v2`. */
  readonly id: string;
  /** Unit-length vectors, one per text, all of the same dimension. */
  embed(texts: readonly string[]): Promise<Float32Array[]>;
}

export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A stored memory plus its similarity to a query vector. */
export interface Neighbor {
  record: MemoryRecord;
  /** Cosine similarity in [-1, 1]. */
  similarity: number;
}

export interface NewMemory extends CandidateMemory, MemoryOrigin {
  vector: Float32Array;
}

export interface ListOptions {
  namespace?: string;
  type?: string;
  limit?: number;
}

export interface MemoryStore {
  /** The embedder id and dimension the table's vectors were made with, or null for an empty store. */
  embedderInfo(): Promise<{ embedder: string; dimension: number } | null>;
  /** Exact-text (folded) matches inside a namespace. */
  findByContentKey(namespace: string, contentKey: string): Promise<MemoryRecord | null>;
  /** Nearest neighbours inside a namespace, most similar first. */
  nearest(namespace: string, vector: Float32Array, limit: number): Promise<Neighbor[]>;
  insert(memories: readonly NewMemory[], embedder: string): Promise<MemoryRecord[]>;
  /** A duplicate seen again: bump seen count and last-seen time. */
  reinforce(id: string, seenAt: Date): Promise<void>;
  list(options: ListOptions): Promise<MemoryRecord[]>;
  count(namespace?: string): Promise<number>;
  /** Vector search across one namespace or all, most similar first. */
  search(vector: Float32Array, options: ListOptions): Promise<Neighbor[]>;
  close(): Promise<void>;
}
