/**
 * Store upkeep after a capture: build the vector index once the store is big enough, keep the vector
 * and full-text indexes current, and compact table versions when they pile up. Run by the worker once
 * a job is done and recorded, so it never delays a hook or a capture; a failure only logs.
 */
import { describeError } from '../core/errors.js';
import type { Logger } from '../core/log.js';
import { isMaintainable, type MaintainableStore, type MaintenancePolicy, type MaintenanceReport } from '../core/maintenance.js';
import type { MemoryStore } from '../core/ports.js';

export interface MaintainDeps {
  store: () => Promise<MemoryStore>;
  policy: MaintenancePolicy;
  /**
   * Starts the upkeep in a process of its own and returns at once. LanceDB 0.31 can deadlock inside
   * `optimize()` on a big table (all threads parked, no CPU; compare lance-format/lance#7439): in a
   * child that kills itself after a time limit, such a hang never wedges the worker or the store lock.
   */
  startInBackground: () => Promise<boolean>;
  logger: Logger;
}

/** After a capture: starts upkeep when some is due. Never throws: the capture it follows is already done. */
export async function maintainStoreAfterCapture(deps: MaintainDeps): Promise<boolean> {
  try {
    const store = await deps.store();
    if (!isMaintainable(store) || !(await store.maintenanceDue(deps.policy))) return false;
    const started = await deps.startInBackground();
    deps.logger.log('info', started ? 'store maintenance started in the background' : 'store maintenance due; one is running already');
    return started;
  } catch (err) {
    deps.logger.log('warn', `store maintenance could not start (captures are unaffected): ${describeError(err)}`);
    return false;
  }
}

export interface RunMaintenanceDeps {
  store: MaintainableStore;
  policy: MaintenancePolicy;
  /** The inter-process store lock, for the steps that rewrite files. */
  withStoreLock: <T>(fn: () => Promise<T>) => Promise<T>;
  logger: Logger;
}

/** One round of upkeep, in the maintenance process; logs the outcome and never throws. */
export async function runMaintenance(deps: RunMaintenanceDeps): Promise<MaintenanceReport | null> {
  try {
    const report = await deps.store.maintain(deps.policy, { withStoreLock: deps.withStoreLock });
    deps.logger.log('info', 'store maintained', { ...report });
    return report;
  } catch (err) {
    deps.logger.log('warn', `store maintenance failed (captures are unaffected): ${describeError(err)}`);
    return null;
  }
}
