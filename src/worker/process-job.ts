/** Runs one claimed job and decides where it goes next: done, back to pending with a retry time, or failed. */
import { setTimeout as sleep } from 'node:timers/promises';
import { describeError, RecallError } from '../core/errors.js';
import type { Logger } from '../core/log.js';
import { isMemoryType, isProvenance, type CandidateMemory } from '../core/memory.js';
import { retryDelayMs, type CaptureJob } from '../queue/job.js';
import { markCaptured } from '../queue/session-ledger.js';
import type { Spool, SpoolEntry } from '../queue/spool.js';
import { refreshContext } from '../context/refresh-context.js';
import { resolveProject } from '../project/resolve-project.js';
import { startUpkeepIfDue } from '../app/start-upkeep.js';
import { captureTranscript, type CaptureDeps, type CaptureResult } from './capture.js';
import { appendHistory } from './history.js';
import { settleSpan, SETTLE_TIMING, type SettleClock } from './settle-span.js';
import type { Runtime } from '../app/runtime.js';

export type JobOutcome =
  | { kind: 'done'; result: CaptureResult }
  | { kind: 'retry'; error: string; notBefore: string }
  | { kind: 'failed'; error: string }
  /** Cannot run until the user acts (no model configured): put back untouched. */
  | { kind: 'waiting'; error: string };

export interface JobContext {
  spool: Spool;
  deps: CaptureDeps & Pick<Runtime, 'loaded' | 'storeLocation' | 'renderContextElsewhere'>;
  logger: Logger;
  historyFile: string;
}

/** `entry` must already sit in processing/. */
export async function processJob(entry: SpoolEntry, ctx: JobContext): Promise<JobOutcome> {
  let job = entry.job as CaptureJob;
  const { spool, deps, logger } = ctx;
  const started = Date.now();
  let current = entry;
  try {
    if (job.uncovered === true) {
      const fixed = await fixOpenSpan(current, ctx);
      if (fixed.job === null) return nothingNew(current, job, ctx, started);
      current = fixed.entry;
      job = fixed.job;
    }
    const result = await captureTranscript(
      {
        transcriptPath: job.transcriptPath,
        cwd: job.cwd,
        sessionId: job.sessionId,
        source: job.agent,
        ...(typeof job.fromByte === 'number' ? { span: { fromByte: job.fromByte, toByte: typeof job.toByte === 'number' ? job.toByte : null } } : {}),
        cached: cachedMemories(job),
        onExtracted: (memories) => {
          current = spool.update(current, { ...job, extracted: memories.map(({ content, type, importance, provenance }) => ({ content, type, importance, provenance })) });
        },
      },
      deps,
    );
    spool.remove(current);
    appendHistory(ctx.historyFile, {
      job: job.id,
      sessionId: job.sessionId,
      transcriptPath: job.transcriptPath,
      namespace: result.namespace,
      status: result.status,
      inserted: result.status === 'stored' ? result.inserted.length : 0,
      reinforced: result.status === 'stored' ? result.reinforced : 0,
      superseded: result.status === 'stored' ? result.superseded : 0,
      quarantined: result.status === 'stored' ? result.quarantined : 0,
      ms: Date.now() - started,
      at: deps.clock.now().toISOString(),
    });
    logger.log('info', result.status === 'stored' ? 'captured' : `skipped: ${result.why}`, {
      job: job.id,
      namespace: result.namespace,
      ...(result.status === 'stored'
        ? { inserted: result.inserted.length, reinforced: result.reinforced, superseded: result.superseded, quarantined: result.quarantined, dropped: result.dropped }
        : {}),
      ms: Date.now() - started,
    });
    if (result.status === 'stored') await refreshContextAfterCapture(result.namespace, ctx);
    // After the job is recorded: index upkeep never holds a capture back, and a failure only logs.
    if (result.status === 'stored') await startUpkeepIfDue(deps, logger);
    return { kind: 'done', result };
  } catch (err) {
    const latest = (current.job ?? job) as CaptureJob;
    const error = describeError(err);
    if (err instanceof RecallError && err.code === 'LLM_NOT_CONFIGURED') {
      spool.move(current, 'pending');
      logger.log('warn', 'job waits: no extraction model configured', { job: job.id });
      return { kind: 'waiting', error };
    }
    try {
      return scheduleAgain(current, latest, err, error, ctx);
    } catch (bookkeeping) {
      // A full or read-only state dir: the job stays in processing/ and the next worker recovers it.
      throw new RecallError('STATE_UNWRITABLE', `cannot record the outcome of job ${job.id}, which stays queued: ${describeError(bookkeeping)}`, { cause: bookkeeping });
    }
  }
}

/** Back to pending with a retry time, or to failed/ after the last attempt or a permanent error. */
function scheduleAgain(current: SpoolEntry, latest: CaptureJob, err: unknown, error: string, ctx: JobContext): JobOutcome {
  const { spool, deps, logger } = ctx;
  const attempts = latest.attempts + 1;
  const transient = !(err instanceof RecallError) || err.transient;
  if (!transient || attempts >= deps.config.queue.maxAttempts) {
    spool.updateAndMove(current, { ...latest, attempts, lastError: error }, 'failed');
    logger.log('error', `job failed for good: ${error}`, { job: latest.id, attempts });
    return { kind: 'failed', error };
  }
  const notBefore = new Date(deps.clock.now().getTime() + retryDelayMs(attempts, deps.config.queue.backoffMs)).toISOString();
  spool.updateAndMove(current, { ...latest, attempts, lastError: error, notBefore }, 'pending');
  logger.log('warn', `job will be retried: ${error}`, { job: latest.id, attempts, notBefore });
  return { kind: 'retry', error, notBefore };
}

/**
 * Fixes the end of a job queued with an open one (worker/settle-span.ts): the span goes into the job file first,
 * then into the session ledger, so a worker stopped in between captures these bytes again rather than never.
 */
async function fixOpenSpan(entry: SpoolEntry, ctx: JobContext): Promise<{ entry: SpoolEntry; job: CaptureJob | null }> {
  const job = entry.job as CaptureJob;
  const home = ctx.deps.loaded.paths.home;
  const settled = await settleSpan(home, job, SETTLE_TIMING, SYSTEM_CLOCK);
  ctx.logger.log('info', 'fixed the end of the session\'s part', { job: job.id, fromByte: settled.fromByte, toByte: settled.toByte, how: settled.how, waitedMs: settled.waitedMs });
  if (settled.toByte === null) return { entry, job: null };
  const { uncovered: _open, ...rest } = job;
  const fixed: CaptureJob = { ...rest, fromByte: settled.fromByte, toByte: settled.toByte };
  const updated = ctx.spool.update(entry, fixed);
  markCaptured(home, job.sessionId, job.transcriptPath, settled.toByte);
  return { entry: updated, job: fixed };
}

/** A job whose session holds nothing no capture covered: done, with nothing to store. */
function nothingNew(entry: SpoolEntry, job: CaptureJob, ctx: JobContext, started: number): JobOutcome {
  ctx.spool.remove(entry);
  const { namespace } = resolveProject(job.cwd);
  const result: CaptureResult = { status: 'skipped', why: 'nothing new in the session since its last capture', reason: 'nothing-new', namespace, transcriptChars: 0 };
  appendHistory(ctx.historyFile, {
    job: job.id,
    sessionId: job.sessionId,
    transcriptPath: job.transcriptPath,
    namespace: result.namespace,
    status: result.status,
    inserted: 0,
    reinforced: 0,
    superseded: 0,
    quarantined: 0,
    ms: Date.now() - started,
    at: ctx.deps.clock.now().toISOString(),
  });
  ctx.logger.log('info', `skipped: ${result.why}`, { job: job.id });
  return { kind: 'done', result };
}

const SYSTEM_CLOCK: SettleClock = { now: () => Date.now(), sleep: (ms) => sleep(ms) };

function cachedMemories(job: CaptureJob): CandidateMemory[] | undefined {
  if (!job.extracted) return undefined;
  return job.extracted.flatMap((m) =>
    isMemoryType(m.type) ? [{ content: m.content, type: m.type, importance: m.importance, ...(isProvenance(m.provenance) ? { provenance: m.provenance } : {}) }] : [],
  );
}

/** The job is done whatever happens here: a failed refresh leaves the previous context file and a log line. */
async function refreshContextAfterCapture(namespace: string, ctx: JobContext): Promise<void> {
  const { deps, logger } = ctx;
  try {
    await refreshContext([namespace], { store: await deps.store(), paths: deps.loaded.paths, renderElsewhere: deps.renderContextElsewhere, config: deps.config, clock: deps.clock });
  } catch (err) {
    logger.log('warn', `could not refresh the SessionStart context: ${describeError(err)}`, { namespace });
  }
}
