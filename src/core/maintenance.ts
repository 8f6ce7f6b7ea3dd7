/** What store upkeep is asked to do and reports, and the store that can do it; the LanceDB store is one. */
import type { MemoryStore } from './ports.js';

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
  /**
   * Whether the key columns have their indexes: BTREE on `id` and `superseded_by`, BITMAP on
   * `namespace` (built at 10,000 rows, or with the vector index if sooner).
   */
  idIndex: boolean;
  /** Table versions before maintenance. */
  versions: number;
  /** Whether compaction ran (it also folds unindexed rows into both indexes and prunes old versions). */
  optimized: boolean;
  /**
   * Memories that were replaced by a memory no longer in the table (a store written before forgetting
   * relinked chains) and are current again.
   */
  danglingRelinked?: number;
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
