import { getPriority } from 'node:os';
import type { Command } from 'commander';
import { endProcessNow } from '../../core/end-process-now.js';
import { describeError } from '../../core/errors.js';
import { releaseOrKeep, releaseStart } from '../../core/start-marker.js';
import { WORKER_NAME } from '../../hook/spawn-worker.js';
import { clearJobsWaiting, noteJobsWaiting } from '../../queue/waiting-marker.js';
import { hasDueJobs, runWorker, type WorkerSummary } from '../../worker/run-worker.js';
import type { Runtime } from '../../app/runtime.js';
import type { Logger } from '../../core/log.js';
import { createCliRuntime, openState } from '../context.js';
import { commandEnv, setExitCode } from '../terminal.js';

/** The detached background worker the SessionEnd hook starts. Logs only; no terminal output. */
export function registerWorker(program: Command): void {
  program
    .command('worker', { hidden: true })
    .description('drain the capture queue in the background (started by the SessionEnd hook)')
    .action(async () => {
      const { loaded, logger } = openState('worker');
      const home = loaded.paths.home;
      // Runs the queue until it is empty, then hands off (start-marker.ts releaseOrKeep): a job queued as
      // it lets go of its start marker is run by this process, with a fresh runtime, not by a second one.
      for (let round = 1; ; round += 1) {
        const runtime = createCliRuntime(loaded);
        const summary = await runRound(runtime, logger, home, round);
        if (summary === null || summary.waiting || summary.lockHeld || summary.lockLost !== null) break;
        if (!releaseOrKeep(home, WORKER_NAME, process.pid, () => hasDueJobs(runtime))) break;
        logger.log('info', 'worker: a job came as it was leaving; running it', { round: round + 1 });
      }
      releaseStart(home, WORKER_NAME, process.pid);
      // Gone at once: a hook that finds no marker from now on starts the next worker, and this one must not
      // run beside it while timers or sockets of the finished rounds wind down. The log is written already.
      process.exit();
    });
}

/**
 * One run of the queue with its own runtime, closed before it returns (so leaving takes no more than the
 * exit). Null when the run failed or a job ran past its time limit: then this process is done.
 */
async function runRound(runtime: Runtime, logger: Logger, home: string, round: number): Promise<WorkerSummary | null> {
  try {
    const summary = await runWorker(runtime, logger, { ignoreBackoff: false, linger: true, waitForLockMs: 0 });
    noteWaiting(home, summary);
    // The niceness it ran at: the hook starts it below the normal priority (see spawn-worker.ts).
    logger.log('info', 'worker finished', { ...summary, round, priority: getPriority() });
    // EX_TEMPFAIL: another worker owns the queue now and runs what is left.
    if (summary.lockLost !== null) setExitCode(75);
    if (summary.timedOut === null) return summary;
    // After a job past its time limit, its work may still be pending here, maybe in a read that never
    // returns: end the process at once (process.exit would wait for that read; see end-process-now.ts).
    releaseStart(home, WORKER_NAME, process.pid);
    return await endProcessNow();
  } catch (err) {
    logger.log('error', `worker stopped: ${describeError(err)}`, { stack: err instanceof Error ? err.stack : undefined });
    setExitCode(1);
    return null;
  } finally {
    await runtime.close();
  }
}

/** Jobs that wait for a model: noted, so SessionStart hooks do not start a worker for them again and again. */
export function noteWaiting(home: string, summary: WorkerSummary): void {
  if (summary.waiting) noteJobsWaiting(home, commandEnv(), 'no extraction model configured');
  else if (summary.done + summary.retried + summary.failed > 0) clearJobsWaiting(home);
}
