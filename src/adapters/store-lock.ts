/**
 * The store lock every writer takes: the local inter-process lock in the state dir and, for a shared
 * `s3://` store, the writer lease in the bucket as well, so writers on one machine and on several
 * machines are serialised the same way.
 */
import { RecallError } from '../core/errors.js';
import type { StoreLocation } from '../core/store-location.js';
import { withLock } from './file-lock.js';

export interface StoreLockOptions {
  /** The state dir that holds the local lock. */
  home: string;
  location: StoreLocation;
  waitMs: number;
  staleMs: number;
  /** Told when a held lock or lease was lost (the holder stalled past `staleMs`). */
  onCompromised?: (err: Error) => void;
}

export type WithStoreLock = <T>(fn: () => Promise<T>) => Promise<T>;

export function createStoreLock(options: StoreLockOptions): WithStoreLock {
  const { home, location, waitMs, staleMs, onCompromised } = options;
  return (fn) =>
    // A writer that stalls mid-write keeps the lock while it runs: another writer in between would
    // dedupe against a table that lacks the first one's rows.
    withLock(home, 'store', { waitMs, staleMs, onCompromised, keepFromLiveHolder: true }, async () => {
      if (location.kind !== 's3') return fn();
      const { acquireS3Lease } = await import('./s3-lease.js');
      const release = await acquireS3Lease(location, { waitMs, staleMs, onCompromised });
      if (release === null) throw new RecallError('LOCK_HELD', `the shared store ${location.uri} is being written by another machine; try again`);
      try {
        return await fn();
      } finally {
        await release();
      }
    });
}
