/**
 * Store upkeep after any write, not only after a capture: `recall import`, `recall add`, `recall
 * capture` and the MCP server's `memory_store` start the same background upkeep the worker starts
 * (vector index past its row count, text index current, versions compacted), so a store filled by an
 * import gets its indexes too. At most one upkeep process runs at a time (maintain-child.ts). Never throws.
 */
import type { Logger } from '../core/log.js';
import { maintainStoreAfterCapture } from '../store/maintain-store.js';
import type { Runtime } from './runtime.js';

export async function startUpkeepIfDue(runtime: Pick<Runtime, 'store' | 'loaded' | 'storeLocation'>, logger: Logger): Promise<boolean> {
  const { paths, config } = runtime.loaded;
  return maintainStoreAfterCapture({
    store: runtime.store,
    policy: config.store,
    logger,
    startInBackground: async () => {
      const { startMaintenanceInBackground, MAINTENANCE_TIME_LIMIT_MS } = await import('./maintain-child.js');
      return startMaintenanceInBackground(runtime.storeLocation(), {
        home: paths.home, logFile: paths.logFile, policy: config.store,
        lockStaleMs: config.queue.lockStaleMs, timeLimitMs: MAINTENANCE_TIME_LIMIT_MS,
      });
    },
  });
}
