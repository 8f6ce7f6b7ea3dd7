/** Doctor's probes of the services recall depends on: Ollama, the embedder, the database. */
import { existsSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { classifyOllamaError, errorCode, responseStatus } from '../adapters/translate-ollama-error.js';
import type { Config } from '../config/schema.js';
import { isRecallError } from '../core/errors.js';
import type { StatePaths } from '../core/state-paths.js';
import { createEmbedder, parseEmbedderSpec } from '../app/create-embedder.js';
import type { EmbedderProbe } from './check-embedder.js';
import { OLLAMA_PROBE_TIMEOUT_MS, type OllamaProbe } from './check-ollama.js';
import type { StoreProbe } from './check-store.js';
import type { StoreLocation } from '../core/store-location.js';

/** Loading a model from disk takes about a second; a partial download may need the network. */
const EMBED_PROBE_TIMEOUT_MS = 60_000;

/** GET /api/version and /api/tags, each bounded to 2 s. */
export async function probeOllama(host: string): Promise<OllamaProbe> {
  try {
    const { createOllamaClient } = await import('../adapters/ollama-client.js');
    const client = createOllamaClient({ host, timeoutMs: OLLAMA_PROBE_TIMEOUT_MS });
    const [version, list] = await Promise.all([client.version(), client.list()]);
    return { reachable: true, version, models: list };
  } catch (err) {
    const status = responseStatus(err);
    switch (classifyOllamaError(err)) {
      case 'unreachable':
        return { reachable: false, failure: 'unreachable', detail: errorCode(err) ?? (err as Error).message };
      case 'timeout':
        return { reachable: false, failure: 'timeout', detail: '' };
      case 'server_error':
        return { reachable: false, failure: 'server-error', detail: `HTTP ${status ?? '?'}: ${(err as Error).message}` };
      default:
        return { reachable: false, failure: 'not-ollama', detail: status ? `HTTP ${status}` : 'not JSON' };
    }
  }
}

/** Makes the embedder a probe embeds with (`createEmbedder`, or a long-lived process's kept one). */
export type MakeEmbedder = typeof createEmbedder;

/** Embeds one short sentence with the configured embedder, without downloading anything new. */
export async function probeEmbedder(
  config: Config,
  paths: StatePaths,
  now: () => number = () => performance.now(),
  make: MakeEmbedder = createEmbedder,
): Promise<EmbedderProbe> {
  try {
    const spec = parseEmbedderSpec(config.embedder.id);
    if (spec.provider === 'transformers' && config.embedder.allowDownload && !isAbsolute(spec.model)) {
      const folder = join(paths.modelsDir, ...spec.model.split('/'));
      if (!existsSync(folder)) return { state: 'not-downloaded', folder };
    }
    const embedder = make(config.embedder.id, {
      modelsDir: paths.modelsDir,
      allowDownload: config.embedder.allowDownload,
      ollamaHost: config.ollama.host,
      timeoutMs: Math.min(config.ollama.timeoutMs, EMBED_PROBE_TIMEOUT_MS),
    });
    const started = now();
    const [vector] = await withTimeout(embedder.embed(['recall doctor checks that the embedder works offline.']), EMBED_PROBE_TIMEOUT_MS);
    return { state: 'loaded', ms: now() - started, dimension: vector?.length ?? 0 };
  } catch (err) {
    return { state: 'failed', message: (err as Error).message };
  }
}

/**
 * createEmbedder keeping what it made by its arguments: a page looked at again embeds with the model it
 * loaded before instead of loading it again (a second or more, and another model session, per look).
 */
export function keepEmbedders(make: MakeEmbedder = createEmbedder): MakeEmbedder {
  const kept = new Map<string, ReturnType<MakeEmbedder>>();
  return (spec, ctx) => {
    const key = JSON.stringify([spec, ctx]);
    let embedder = kept.get(key);
    if (embedder === undefined) {
      embedder = make(spec, ctx);
      kept.set(key, embedder);
    }
    return embedder;
  };
}

/** Opens the database read-only in effect: nothing is written, and a missing one is not created. */
export async function probeStore(location: StoreLocation): Promise<StoreProbe> {
  if (location.kind === 'local' && !existsSync(location.uri)) return { state: 'absent' };
  try {
    const { openLanceStore } = await import('../adapters/lance-store.js');
    const store = await openLanceStore(location);
    try {
      const info = await store.embedderInfo();
      const count = info ? await store.count() : 0;
      // Read the table whole: an unreadable data file or text index shows only when read.
      const health = await store.inspectDamage();
      if (health !== null && (health.damagedFragments.length > 0 || health.textIndex === 'damaged')) {
        return { state: 'damaged', count: health.rows, damagedFiles: health.damagedFragments.length, readableRows: health.readableRows, textIndexDamaged: health.textIndex === 'damaged' };
      }
      const dangling = info === null ? 0 : (await store.danglingVersions()).length;
      return { state: 'open', info, count, dangling };
    } finally {
      await store.close();
    }
  } catch (err) {
    return { state: 'failed', message: (err as Error).message, ...(isRecallError(err) ? { code: err.code } : {}) };
  }
}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms / 1000} s`)), ms);
    timer.unref();
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}
