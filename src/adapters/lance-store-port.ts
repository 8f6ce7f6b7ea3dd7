/** What the LanceDB store offers beyond a MemoryStore: upkeep, cache figures, damage inspection and repair. */
import type { MaintainableStore } from '../core/maintenance.js';
import type { TableHealth } from './lance-salvage.js';

export interface LanceStore extends MaintainableStore {
  /** Compact files, fold new rows into the indexes and prune old versions; each write makes a new version. */
  optimize(): Promise<void>;
  /** Bytes in LanceDB's index and metadata caches for this store. */
  cacheBytes(): number;
  /** Reads the whole table to find unreadable data files or a text index that no longer loads; null without a table. */
  inspectDamage(): Promise<TableHealth | null>;
  /**
   * Recovers from what inspectDamage finds: unreadable data files -> the table rewritten from every
   * row that can still be read (and its text index built again); a damaged text index -> rebuilt.
   * Callers hold the store lock.
   */
  repairDamage(): Promise<DamageRepair | null>;
  /**
   * What went wrong after the last writes had been stored (the text index could not be brought up to
   * date), once each: the write itself succeeded, so it is reported, not thrown.
   */
  takeWriteWarnings(): string[];
  /** Ids of the memories replaced by a memory that no longer exists (they should be current). */
  danglingVersions(): Promise<string[]>;
  /** Makes the memories replaced by a memory that no longer exists current again; returns how many. Callers hold the store lock. */
  relinkDanglingVersions(): Promise<number>;
}

export interface DamageRepair {
  before: TableHealth;
  /** Rows in the table after the repair. */
  kept: number;
  /** Rows that could not be read and are gone from the table. */
  lost: number;
  rewritten: boolean;
  textIndexRebuilt: boolean;
}
