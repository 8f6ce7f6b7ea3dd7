/**
 * Forgetting from the page can be undone: the rows as they were are kept here, under a random key the
 * notice's Undo button carries, for UNDO_MS (and as long as the page runs). Undo writes the same rows
 * back (same id, text, times, status), with the vector of the same text.
 */
import { randomBytes } from 'node:crypto';
import type { MemoryRecord } from '../core/memory.js';

export const UNDO_MS = 30 * 60_000;

export interface UndoStash {
  keep(records: readonly MemoryRecord[]): string;
  /** The rows kept under `key`, once; null when unknown or past the window. */
  take(key: string): MemoryRecord[] | null;
}

export function createUndoStash(now: () => number = Date.now, windowMs = UNDO_MS): UndoStash {
  const kept = new Map<string, { until: number; records: MemoryRecord[] }>();
  const prune = (): void => {
    for (const [key, entry] of kept) if (entry.until < now()) kept.delete(key);
  };
  return {
    keep(records) {
      prune();
      const key = randomBytes(12).toString('base64url');
      kept.set(key, { until: now() + windowMs, records: [...records] });
      return key;
    },
    take(key) {
      prune();
      const entry = kept.get(key);
      kept.delete(key);
      return entry === undefined ? null : entry.records;
    },
  };
}
