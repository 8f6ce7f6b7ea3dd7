/**
 * The queue worker: one at a time (queue lock), drains every due job, and re-scans the spool
 * after letting the lock go, so a job queued by a hook whose own worker found the lock held
 * is never left behind. Jobs a hook had to put in the fallback spool (state dir full) are adopted
 * into the spool first, each time the lock is taken.
 *
 * The lock alone cannot keep a job from running twice: a worker starved of CPU past the stale time
 * loses it to the next one while still mid-job. So each claimed job carries its worker's process
 * (job-owner.ts), a new lock holder takes back only jobs whose worker is gone, and a worker that
 * finds its lock lost finishes the job in hand and claims no other.
 */
import { basename } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from '../core/log.js';
import { adoptFallbackJobs, countFallbackJobs } from '../queue/adopt-fallback.js';
import { Spool, type SpoolEntry } from '../queue/spool.js';
import { isDue, type CaptureJob } from '../queue/job.js';
import { currentOwner, isOwnerAlive, ownerOf, type JobOwner } from '../core/job-owner.js';
import { processJob, type JobOutcome } from './process-job.js';
import { tryLock } from '../adapters/file-lock.js';
import { recordStoppedJob } from './record-stopped-job.js';
import { runWithTimeLimit } from './run-with-time-limit.js';
import { startJobWatchdog, type JobWatchdog } from './job-watchdog.js';
import type { Runtime } from '../app/runtime.js';

export interface WorkerOptions {
  /** Run jobs whose retry time has not come yet (`recall drain`); each job still runs at most once. */
  ignoreBackoff: boolean;
  /** Stay up (holding the queue) while a retry is due within `config.queue.lingerMs`. */
  linger: boolean;
  /** How long to wait for the queue lock before leaving the work to its holder. */
  waitForLockMs: number;
  /** Called after every job, for progress output. */
  onJob?: (entry: SpoolEntry, outcome: JobOutcome) => void;
  /** Where fallback spools live (tests); default: fallback-spool.ts `fallbackRoots()`. */
  fallbackRoots?: readonly string[];
}

export interface WorkerSummary {
  /** Another worker held the queue; it will run our jobs. */
  lockHeld: boolean;
  done: number;
  retried: number;
  failed: number;
  /** Jobs wait for the user (no extraction model configured). */
  waiting: boolean;
  /** Jobs moved in from the fallback spool. */
  adopted: number;
  /** The queue lock was taken over while held (this process stalled past the stale time); the worker stopped after the job in hand. */
  lockLost: string | null;
  /**
   * A job ran past `queue.jobTimeoutMs`: it was recorded as stopped and the worker claimed nothing
   * more. The job's own work may still be pending in this process, so its caller must exit now.
   */
  timedOut: string | null;
}

const POLL_MS = 500;


export async function runWorker(runtime: Runtime, logger: Logger, options: WorkerOptions): Promise<WorkerSummary> {
  const { paths, config } = runtime.loaded;
  const spool = new Spool(paths);
  const summary: WorkerSummary = { lockHeld: false, done: 0, retried: 0, failed: 0, waiting: false, adopted: 0, lockLost: null, timedOut: null };
  const attempted = new Set<string>();
  const owner = currentOwner();
  const roots = options.fallbackRoots === undefined ? {} : { roots: options.fallbackRoots };
  let waitMs = options.waitForLockMs;
  /** The last adoption could not move everything (no room yet): do not spin on those jobs. */
  let adoptionStuck = false;

  const lingerUntil = Date.now() + (options.linger ? config.queue.lingerMs : 0);
  const watchdog = await startJobWatchdog();
  try {
    return await runRounds();
  } finally {
    await watchdog.close();
  }

  async function runRounds(): Promise<WorkerSummary> {
    for (;;) {
      const release = await tryLock(paths.home, 'worker', {
        waitMs,
        staleMs: config.queue.lockStaleMs,
        onCompromised: (err) => {
          summary.lockLost ??= err.message;
          logger.log('error', `queue lock lost (this worker stalled past the stale time); stopping after the job in hand: ${err.message}`);
        },
      });
      if (!release) {
        summary.lockHeld = summary.done + summary.retried + summary.failed === 0;
        logger.log('info', 'queue lock held by another worker; leaving the jobs to it');
        return summary;
      }
      try {
        adoptionStuck = adoptFallback(paths.home, spool, roots, logger, summary);
        if (summary.lockLost === null) {
          summary.failed += recoverOrphans(spool, logger, config.queue.maxCrashes);
          await drain(spool, runtime, logger, { ...options, owner, watchdog }, summary, attempted);
        }
      } finally {
        await release();
      }
      if (summary.waiting || summary.lockLost !== null || summary.timedOut !== null) return summary;
      // Let go first, then look: anything queued before another worker gave up on the lock is visible now.
      // A retry due soon is waited for without the lock, so `recall drain` can still run meanwhile.
      while (!spool.nextPending((job) => isRunnable(job, options, attempted, runtime.clock.now()))) {
        if (!adoptionStuck && countFallbackJobs(paths.home, roots) > 0) break;
        const retryAt = options.ignoreBackoff ? null : spool.nextRetryAt();
        if (retryAt === null || retryAt.getTime() > lingerUntil) return summary;
        await sleep(Math.min(POLL_MS * 4, Math.max(50, retryAt.getTime() - Date.now())));
      }
      waitMs = 0;
    }
  }
}

async function drain(
  spool: Spool,
  runtime: Runtime,
  logger: Logger,
  options: WorkerOptions & { owner: JobOwner; watchdog: JobWatchdog },
  summary: WorkerSummary,
  attempted: Set<string>,
): Promise<void> {
  const { jobTimeoutMs, maxCrashes } = runtime.loaded.config.queue;
  for (let entry = next(); entry && summary.lockLost === null; entry = next()) {
    attempted.add(entry.job!.id);
    let claimed: SpoolEntry;
    try {
      claimed = spool.claim(entry, options.owner);
    } catch {
      continue; // Claimed by another worker or removed by hand meanwhile: nothing to run.
    }
    options.watchdog.start(jobTimeoutMs);
    const outcome = await runWithTimeLimit(
      processJob(claimed, { spool, deps: runtime, logger, historyFile: runtime.loaded.paths.historyFile }),
      jobTimeoutMs,
    ).finally(() => options.watchdog.end());
    if (outcome === 'timed-out') {
      const error = `the job ran longer than ${jobTimeoutMs} ms (queue.jobTimeoutMs) and was stopped`;
      // Read back: the job may have saved the model's answer meanwhile.
      const stopped = recordStoppedJob(spool, spool.read('processing', basename(claimed.file)), error, maxCrashes);
      logger.log('error', `job stopped: ${stopped.error}`, { job: entry.job!.id, crashes: stopped.crashes, to: stopped.to });
      summary.timedOut = stopped.error;
      if (stopped.to === 'failed') summary.failed += 1;
      else summary.retried += 1;
      options.onJob?.(claimed, stopped.to === 'failed' ? { kind: 'failed', error: stopped.error } : { kind: 'retry', error: stopped.error, notBefore: new Date().toISOString() });
      return;
    }
    options.onJob?.(claimed, outcome);
    if (outcome.kind === 'done') summary.done += 1;
    else if (outcome.kind === 'retry') summary.retried += 1;
    else if (outcome.kind === 'failed') summary.failed += 1;
    else {
      summary.waiting = true;
      return;
    }
  }

  function next(): SpoolEntry | null {
    const now = runtime.clock.now();
    return spool.nextPending((job) => isRunnable(job, options, attempted, now));
  }
}

/**
 * Whether a worker started now would find a job to run: a due job in the spool, or one in a fallback
 * spool. File reads only, no store: the detached worker's last look before it leaves (worker.ts).
 */
export function hasDueJobs(runtime: Runtime, fallbackRoots?: readonly string[]): boolean {
  const { paths } = runtime.loaded;
  const now = runtime.clock.now();
  if (new Spool(paths).nextPending((job) => isDue(job, now)) !== null) return true;
  return countFallbackJobs(paths.home, fallbackRoots === undefined ? {} : { roots: fallbackRoots }) > 0;
}

/** Due jobs, or with `ignoreBackoff` every job not yet tried in this run. */
function isRunnable(job: CaptureJob, options: WorkerOptions, attempted: ReadonlySet<string>, now: Date): boolean {
  return options.ignoreBackoff ? !attempted.has(job.id) : isDue(job, now);
}

/**
 * Moves fallback-spool jobs into pending/; true when some are still there right after (no room yet),
 * so the worker does not spin on them. Jobs a hook adds later are picked up on the next round.
 */
function adoptFallback(
  home: string,
  spool: Spool,
  roots: { roots?: readonly string[] },
  logger: Logger,
  summary: WorkerSummary,
): boolean {
  const report = adoptFallbackJobs(home, spool.dir('pending'), roots);
  summary.adopted += report.adopted;
  if (report.adopted > 0) logger.log('warn', 'adopted jobs a hook queued in the fallback spool while the state dir was unwritable', { adopted: report.adopted });
  if (report.left > 0) logger.log('warn', 'jobs wait in the fallback spool: the state dir still cannot take them', { left: report.left, problem: report.problems[0] });
  return report.left > 0 || countFallbackJobs(home, roots) > 0;
}

/**
 * Jobs in processing/ whose worker is gone go back to pending/ to run again, or to failed/ once
 * their workers stopped mid-job `maxCrashes` times. A job whose worker still runs stays with it:
 * that worker lost the lock by stalling, not by dying, and finishes it.
 */
function recoverOrphans(spool: Spool, logger: Logger, maxCrashes: number): number {
  let failed = 0;
  for (const name of spool.names('processing')) {
    const owner = ownerOf(name);
    if (owner !== null && isOwnerAlive(owner)) {
      logger.log('info', 'left a job to the worker still running it', { file: name, pid: owner.pid });
      continue;
    }
    const entry = spool.read('processing', name);
    try {
      const stopped = recordStoppedJob(spool, entry, 'the worker running it stopped mid-job (crashed or was killed)', maxCrashes);
      if (stopped.to === 'pending') {
        logger.log('warn', 'recovered a job from a worker that stopped mid-job', { file: entry.file, crashes: stopped.crashes });
        continue;
      }
      failed += 1;
      logger.log('error', `job failed for good: ${stopped.error}`, { file: entry.file, crashes: stopped.crashes });
    } catch {
      // Already moved.
    }
  }
  return failed;
}
