/**
 * Forgetting from the page can be undone: the rows as they were are kept here, under a random key the
 * notice's Undo button carries, for UNDO_MS (and as long as the page runs). Undo writes the same rows
 * back (same id, text, times, status), with the vector of the same text, and puts back the version
 * links the forget changed (the forgotten head is current again, the version before it replaced again).
 */
import { randomBytes } from 'node:crypto';
import type { MemoryRecord } from '../core/memory.js';
import type { Relinked } from '../store/forget-memories.js';

export const UNDO_MS = 30 * 60_000;

/** What a forget did: the rows it deleted and the older versions whose links it changed. */
export interface Forgotten {
  records: MemoryRecord[];
  relinked: Relinked[];
  /** The page the forget was asked from, to go back to once undone. */
  back?: string;
}

export interface UndoStash {
  keep(forgotten: Forgotten): string;
  /** What was kept under `key`, once; null when unknown or past the window. */
  take(key: string): Forgotten | null;
}

export function createUndoStash(now: () => number = Date.now, windowMs = UNDO_MS): UndoStash {
  const kept = new Map<string, { until: number; forgotten: Forgotten }>();
  const prune = (): void => {
    for (const [key, entry] of kept) if (entry.until < now()) kept.delete(key);
  };
  return {
    keep(forgotten) {
      prune();
      const key = randomBytes(12).toString('base64url');
      kept.set(key, { until: now() + windowMs, forgotten: { ...forgotten, records: [...forgotten.records], relinked: [...forgotten.relinked] } });
      return key;
    },
    take(key) {
      prune();
      const entry = kept.get(key);
      kept.delete(key);
      return entry === undefined ? null : entry.forgotten;
    },
  };
}
