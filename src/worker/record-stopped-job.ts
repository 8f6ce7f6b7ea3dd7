/**
 * A job whose worker stopped in the middle of it: it crashed or was killed (found later, its file
 * still in processing/), or it ran past the job time limit. Such a job may be what stops workers
 * (a transcript that exhausts memory, a read that never returns), so after `maxCrashes` stops it
 * moves to failed/ with the reason instead of stopping every worker that picks it up.
 */
import type { CaptureJob } from '../queue/job.js';
import type { Spool, SpoolEntry } from '../queue/spool.js';

export interface StoppedJob {
  to: 'pending' | 'failed';
  crashes: number;
  error: string;
}

/** Counts one more stop and moves the job back to pending/, or to failed/ at the limit. `why` says how it stopped. */
export function recordStoppedJob(spool: Spool, entry: SpoolEntry, why: string, maxCrashes: number): StoppedJob {
  const job = entry.job as CaptureJob | null;
  if (job === null) {
    spool.move(entry, 'failed');
    return { to: 'failed', crashes: 1, error: why };
  }
  const crashes = (job.crashes ?? 0) + 1;
  const to = crashes >= maxCrashes ? 'failed' : 'pending';
  const error = to === 'failed' ? `${why}; its worker stopped mid-job ${crashes} times, so it was set aside (recall retry runs it again)` : why;
  spool.updateAndMove(entry, { ...job, crashes, lastError: error }, to);
  return { to, crashes, error };
}
