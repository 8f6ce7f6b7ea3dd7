/**
 * Store upkeep after a capture: build the vector index once the store is big enough, keep the vector
 * and full-text indexes current, and compact table versions when they pile up. Run by the worker once
 * a job is done and recorded, so it never delays a hook or a capture; a failure only logs.
 */
import { describeError } from '../core/errors.js';
import type { Logger } from '../core/log.js';
import type { MemoryStore } from '../core/ports.js';

export interface MaintenancePolicy {
  /** Build the vector index once the table holds at least this many rows. */
  vectorIndexMinRows: number;
  /** Compact and prune once the table has at least this many versions. */
  optimizeEveryVersions: number;
  /** Versions younger than this are kept when pruning, so a reader mid-query never loses its files. */
  pruneGraceMs?: number;
}

export interface MaintenanceReport {
  rows: number;
  /** What happened to the vector index: none yet, built now, rebuilt (too many delta segments, or an older kind), or left as is. */
  vectorIndex: 'none' | 'built' | 'rebuilt' | 'present';
  /** Whether `content` has its full-text index (false only for an empty table). */
  textIndex: boolean;
  /** Whether `id` and `superseded_by` have their BTREE indexes (built at 10,000 rows, or with the vector index if sooner). */
  idIndex: boolean;
  /** Table versions before maintenance. */
  versions: number;
  /** Whether compaction ran (it also folds unindexed rows into both indexes and prunes old versions). */
  optimized: boolean;
  ms: number;
}

/** A store that can look after its own indexes; the LanceDB store is one. */
export interface MaintainableStore extends MemoryStore {
  /** Whether a round of upkeep would do anything; cheap reads only. */
  maintenanceDue(policy: MaintenancePolicy): Promise<boolean>;
  /**
   * One round of upkeep. Long index training runs without the lock (the store commits it next to
   * concurrent writes); steps that rewrite files (compaction) run inside `withStoreLock`.
   */
  maintain(policy: MaintenancePolicy, options?: { withStoreLock?: <T>(fn: () => Promise<T>) => Promise<T> }): Promise<MaintenanceReport>;
}

export function isMaintainable(store: MemoryStore): store is MaintainableStore {
  const candidate = store as Partial<MaintainableStore>;
  return typeof candidate.maintain === 'function' && typeof candidate.maintenanceDue === 'function';
}

export interface MaintainDeps {
  store: () => Promise<MemoryStore>;
  policy: MaintenancePolicy;
  /**
   * Starts the upkeep in a process of its own and returns at once. LanceDB 0.31 can deadlock inside
   * `optimize()` on a big table (all threads parked, no CPU; compare lance-format/lance#7439): in a
   * child that kills itself after a time limit, such a hang never wedges the worker or the store lock.
   */
  startInBackground: () => Promise<void>;
  logger: Logger;
}

/** After a capture: starts upkeep when some is due. Never throws: the capture it follows is already done. */
export async function maintainStoreAfterCapture(deps: MaintainDeps): Promise<boolean> {
  try {
    const store = await deps.store();
    if (!isMaintainable(store) || !(await store.maintenanceDue(deps.policy))) return false;
    await deps.startInBackground();
    deps.logger.log('info', 'store maintenance started in the background');
    return true;
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
