/** The memory database opens and was made with the configured embedder. Pure. */
import type { CheckResult } from './check-result.js';
import { describeStoreLocation, type StoreLocation } from '../core/store-location.js';

export type StoreProbe =
  | { state: 'absent' }
  /** `dangling`: memories replaced by a memory that no longer exists (hidden from reads until upkeep or `recall repair`). */
  | { state: 'open'; info: { embedder: string; dimension: number } | null; count: number; dangling?: number }
  | { state: 'failed'; message: string; code?: string }
  /** The table opens, but reading it whole found unreadable data files or a text index that does not load. */
  | { state: 'damaged'; count: number; damagedFiles: number; readableRows: number; textIndexDamaged: boolean };

export function checkStore(configuredEmbedder: string, location: StoreLocation, probe: StoreProbe): CheckResult {
  const base = { id: 'store', title: 'Database' } as const;
  const dbDir = describeStoreLocation(location);
  switch (probe.state) {
    case 'absent':
      return { ...base, status: 'ok', detail: `no database yet; the first capture creates ${dbDir}` };
    case 'failed':
      if (probe.code === 'STORE_CORRUPT') return { ...base, status: 'fail', detail: probe.message, fix: 'recall repair (sets the damaged version aside, nothing is deleted; --dry-run shows what it would do)' };
      return { ...base, status: 'fail', detail: `cannot read ${dbDir}: ${probe.message}`, fix: location.kind === 's3' ? `check that ${location.endpoint ?? 'S3'} answers, that the bucket exists and that AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY may read and write it` : `check the permissions of ${dbDir}; if it is damaged, move it aside (its memories go with it) and capture again` };
    case 'damaged': {
      const lost = probe.count - probe.readableRows;
      const parts = [
        ...(probe.damagedFiles > 0 ? [`${lost} of ${probe.count} memories cannot be read (${probe.damagedFiles} damaged data file${probe.damagedFiles === 1 ? '' : 's'})`] : []),
        // Text searches read the rows too, so with a damaged data file the index cannot be judged on its own.
        ...(probe.textIndexDamaged && probe.damagedFiles === 0 ? ['the text index does not load'] : []),
      ];
      return { ...base, status: 'fail', detail: `${dbDir}: ${parts.join('; ')}`, fix: 'recall repair (keeps every memory that can still be read and rebuilds the text index; --dry-run shows what it would do)' };
    }
    case 'open': {
      if (probe.info === null) return { ...base, status: 'ok', detail: `${dbDir} is empty` };
      if (probe.info.embedder !== configuredEmbedder) {
        return {
          ...base,
          status: 'fail',
          detail: `${probe.count} memories were embedded with ${probe.info.embedder} (${probe.info.dimension} dimensions), but the config says ${configuredEmbedder}`,
          fix: `recall reindex (re-embeds them with ${configuredEmbedder}), or set embedder.id back to ${probe.info.embedder}`,
        };
      }
      const dangling = probe.dangling ?? 0;
      if (dangling > 0) {
        return {
          ...base,
          status: 'warn',
          detail: `${probe.count} memories; ${dangling} ${dangling === 1 ? 'is' : 'are'} marked as replaced by a memory that no longer exists, so ${dangling === 1 ? 'it shows' : 'they show'} nowhere`,
          fix: 'recall repair (makes them current again; the next store upkeep does the same)',
        };
      }
      return { ...base, status: 'ok', detail: `${probe.count} memories, embedder ${probe.info.embedder} matches the config` };
    }
  }
}
