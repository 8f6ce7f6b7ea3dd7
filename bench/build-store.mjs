// Builds a memory store of N realistic-looking memories straight through the built store module,
// with the hash embedder (fast, no model), spread over 20 project namespaces.
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';

const dist = new URL('../dist/', import.meta.url);
const { openLanceStore } = await import(new URL('adapters/lance-store.js', dist).href);
const { createHashEmbedder } = await import(new URL('embed/hash-embedder.js', dist).href);
const { configSchema } = await import(new URL('config/schema.js', dist).href);

const BATCH = 5_000;
const SUBJECTS = ['pnpm', 'the API', 'migrations', 'money', 'the cache', 'CI', 'logging', 'auth tokens', 'Docker images', 'tests', 'retries', 'the mobile app', 'feature flags', 'timestamps', 'error codes'];
const VERBS = ['must use', 'should prefer', 'never use', 'always run', 'store', 'validate', 'rotate', 'cache', 'log', 'retry'];
const OBJECTS = ['integer cents in a BIGINT column', 'exponential backoff', 'zod schemas', 'structured JSON', 'UTC timestamptz', 'blue-green deploys', 'short-lived JWTs', 'the pnpm store', 'opaque cursors', 'SQLite offline caches', 'E_CONNRESET handling', 'two-space indentation', 'Terraform plans', 'TestFlight builds'];

export function memoryText(i) {
  const pick = (list, salt) => list[(i * 7919 + salt * 104729) % list.length];
  return `${pick(SUBJECTS, 1)}: ${pick(VERBS, 2)} ${pick(OBJECTS, 3)} (rule ${i}, see ticket ${(i * 31) % 9973}).`;
}

/**
 * Writes `size` memories into `<home>/db`; returns how long it took. With `maintain`, the store then
 * gets the upkeep the worker gives it (vector index past the configured row count, FTS, compaction).
 */
export async function buildStore(home, size, { maintain = false } = {}) {
  const embedder = createHashEmbedder();
  const store = await openLanceStore(join(home, 'db'));
  const started = performance.now();
  for (let from = 0; from < size; from += BATCH) {
    const texts = Array.from({ length: Math.min(BATCH, size - from) }, (_, k) => memoryText(from + k));
    const vectors = await embedder.embed(texts);
    await store.insert(
      texts.map((content, k) => ({
        content, type: 'preference', importance: 0.7, namespace: `project:bench${(from + k) % 20}-0000abcd`,
        projectRoot: null, sessionId: null, source: 'bench', vector: vectors[k],
      })),
      embedder.id,
    );
  }
  await store.optimize();
  if (maintain) await store.maintain({ ...configSchema.parse({}).store, pruneGraceMs: 0 });
  await store.close();
  return { buildMs: performance.now() - started };
}
