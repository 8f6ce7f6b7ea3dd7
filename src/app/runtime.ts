/** Wires the real adapters behind the pipeline's ports, each created on first use. */
import type { LoadedConfig } from '../config/load-config.js';
import type { Embedder, Llm, LlmUsage, MemoryStore } from '../core/ports.js';
import { systemClock } from '../core/ports.js';
import { fileLogger } from '../core/log.js';
import { RecallError } from '../core/errors.js';
import { resolveStoreLocation } from '../config/store-location.js';
import { type StoreLocation } from '../core/store-location.js';
import { serveSocketPath } from '../serve-client/serve-client.js';
import type { RenderContextElsewhere } from '../context/refresh-context.js';
import type { StoreParts } from '../store/store-parts.js';
import { createStoreLock, type WithStoreLock } from '../adapters/store-lock.js';
import type { Logger } from '../core/log.js';
import type { LanceStore } from '../adapters/lance-store-port.js';

export interface Runtime extends StoreParts {
  loaded: LoadedConfig;
  /** An extraction model by name (`recall eval`); `onUsage` is told the server's figures of each answer. */
  llmFor(model: string, onUsage?: (usage: LlmUsage) => void): Llm;
  /** Where the memory table lives (RECALL_HOME/db, another folder, or a shared s3:// store); CONFIG_INVALID if unusable. */
  storeLocation(): StoreLocation;
  /** The socket of a `recall serve` this process may use (it may not be running), or null when it may use none. */
  serveSocket: string | null;
  /** Renders SessionStart contexts through that `recall serve` (null when this process may use none). */
  renderContextElsewhere: RenderContextElsewhere | null;
  close(): Promise<void>;
}

/** How long a writer waits for the store lock: writes are short, but a slow disk is not a reason to fail. */
const STORE_LOCK_WAIT_MS = 60_000;

export interface RuntimeOptions {
  /**
   * Let a running `recall serve` with the same embedder and store embed and render context: the
   * caller decides from the environment (RECALL_NO_SERVE, see serveAllowed). The daemon itself says
   * no: it must never wait on itself.
   */
  useServe: boolean;
  /** A process that stays up (recall serve, the MCP server): its store is opened for that (OpenStoreOptions.longLived). */
  longLived?: boolean;
  /**
   * `recall serve`: the store read in a child process that is replaced past `threadCap` threads
   * (hosted-store.ts); `warm` readies each new one before it takes over.
   */
  hostStore?: { threadCap: number; logger: Logger; warm: (store: LanceStore) => Promise<unknown> };
}

export function createRuntime(loaded: LoadedConfig, options: RuntimeOptions): Runtime {
  const { config, paths } = loaded;
  const serveSocket = options.useServe ? serveSocketPath(paths.home) : null;
  let llm: Llm | undefined;
  let embedder: Promise<Embedder> | undefined;
  let store: Promise<MemoryStore> | undefined;
  // Resolved on first use, so commands that never touch the store work with a half-configured one.
  let location: StoreLocation | undefined;
  const storeLocation = (): StoreLocation => (location ??= resolveStoreLocation(config, paths));
  let storeLock: WithStoreLock | undefined;

  return {
    loaded,
    storeLocation,
    serveSocket,
    renderContextElsewhere: serveSocket === null ? null : contextThroughServe(serveSocket, config, paths.dbDir),
    config,
    clock: systemClock,
    log: fileLogger(paths.logFile, 'store'),
    llm() {
      if (!config.ollama.llmModel) {
        throw new RecallError('LLM_NOT_CONFIGURED', 'no extraction model: set RECALL_OLLAMA_LLM_MODEL');
      }
      llm ??= createLlmLazily(config.ollama.host, config.ollama.llmModel, config.ollama.timeoutMs);
      return llm;
    },
    llmFor(model, onUsage) {
      return createLlmLazily(config.ollama.host, model, config.ollama.timeoutMs, onUsage);
    },
    embedder() {
      embedder ??= import('./create-embedder.js').then(async ({ createEmbedder }) => {
        const local = createEmbedder(config.embedder.id, {
          modelsDir: paths.modelsDir,
          allowDownload: config.embedder.allowDownload,
          ollamaHost: config.ollama.host,
          timeoutMs: config.ollama.timeoutMs,
        });
        // The model loads on the first embed that no daemon answers, so a warm `recall serve` spares it.
        const socketPath = serveSocket;
        if (socketPath === null) return local;
        const [{ embedderServedFirst }, { serveIdentity }] = await Promise.all([import('../serve-client/served-embedder.js'), import('../serve-client/serve-identity.js')]);
        return embedderServedFirst(local, { socketPath, identity: serveIdentity(config, paths.dbDir) });
      });
      return embedder;
    },
    store() {
      const hosted = options.hostStore;
      store ??= hosted !== undefined
        ? import('./hosted-store.js').then(({ openHostedStore }) => openHostedStore(storeLocation(), hosted))
        : import('../adapters/lance-store.js').then(({ openLanceStore }) => openLanceStore(storeLocation(), { longLived: options.longLived === true, groupCountsFile: paths.groupCountsFile }));
      // A store that could not be opened (say, a shared one that was unreachable) is tried afresh next time.
      store.catch(() => (store = undefined));
      return store;
    },
    withStoreLock(fn) {
      storeLock ??= createStoreLock({ home: paths.home, location: storeLocation(), waitMs: STORE_LOCK_WAIT_MS, staleMs: config.queue.lockStaleMs });
      return storeLock(fn);
    },
    async close() {
      if (store) await (await store).close();
    },
  };
}

/** Context rendering by a running `recall serve`; its client modules load on first use. */
function contextThroughServe(socketPath: string, config: LoadedConfig['config'], dbDir: string): RenderContextElsewhere {
  return async (targets, options) => {
    const [{ contextRendererAt }, { serveIdentity }] = await Promise.all([import('../serve-client/served-context.js'), import('../serve-client/serve-identity.js')]);
    return contextRendererAt(socketPath, serveIdentity(config, dbDir))(targets, options);
  };
}

/** The ollama client loads on the first chat, not when the runtime is built. */
function createLlmLazily(host: string, model: string, timeoutMs: number, onUsage?: (usage: LlmUsage) => void): Llm {
  let real: Promise<Llm> | undefined;
  return {
    model,
    async chat(request) {
      real ??= import('../adapters/ollama-llm.js').then(({ createOllamaLlm }) => createOllamaLlm({ host, model, timeoutMs, ...(onUsage ? { onUsage } : {}) }));
      return (await real).chat(request);
    },
  };
}
