/** What the stages that write memories are handed by the composition root (src/app/runtime.ts). */
import type { Config } from '../config/schema.js';
import type { Logger } from '../core/log.js';
import type { Clock, Embedder, Llm, MemoryStore } from '../core/ports.js';

export interface StoreParts {
  config: Readonly<Config>;
  llm: () => Llm;
  embedder: () => Promise<Embedder>;
  store: () => Promise<MemoryStore>;
  /** Runs store writes under the inter-process store lock. */
  withStoreLock: <T>(fn: () => Promise<T>) => Promise<T>;
  clock: Clock;
  /** Where decisions the model could not help with are noted. */
  log?: Logger;
}
