import { getPriority } from 'node:os';
import type { Command } from 'commander';
import { endProcessNow } from '../../core/end-process-now.js';
import { describeError } from '../../core/errors.js';
import { releaseStart } from '../../core/start-marker.js';
import { WORKER_NAME } from '../../hook/spawn-worker.js';
import { clearJobsWaiting, noteJobsWaiting } from '../../queue/waiting-marker.js';
import { runWorker, type WorkerSummary } from '../../worker/run-worker.js';
import { createCliRuntime, openState } from '../context.js';
import { commandEnv, setExitCode } from '../terminal.js';

/** The detached background worker the SessionEnd hook starts. Logs only; no terminal output. */
export function registerWorker(program: Command): void {
  program
    .command('worker', { hidden: true })
    .description('drain the capture queue in the background (started by the SessionEnd hook)')
    .action(async () => {
      const { loaded, logger } = openState('worker');
      const runtime = createCliRuntime(loaded);
      let timedOut = false;
      try {
        const home = loaded.paths.home;
        const summary = await runWorker(runtime, logger, {
          ignoreBackoff: false,
          linger: true,
          waitForLockMs: 0,
          beforeLeaving: () => releaseStart(home, WORKER_NAME, process.pid),
        });
        noteWaiting(home, summary);
        // The niceness it ran at: the hook starts it below the normal priority (see spawn-worker.ts).
        logger.log('info', 'worker finished', { ...summary, priority: getPriority() });
        // EX_TEMPFAIL: another worker owns the queue now and runs what is left.
        if (summary.lockLost !== null) setExitCode(75);
        timedOut = summary.timedOut !== null;
      } catch (err) {
        logger.log('error', `worker stopped: ${describeError(err)}`, { stack: err instanceof Error ? err.stack : undefined });
        setExitCode(1);
      } finally {
        releaseStart(loaded.paths.home, WORKER_NAME, process.pid);
        // After a job past its time limit, its work may still be pending here, maybe in a read that never
        // returns: end the process at once (process.exit would wait for that read; see end-process-now.ts).
        if (timedOut) await endProcessNow();
        await runtime.close();
      }
    });
}

/** Jobs that wait for a model: noted, so SessionStart hooks do not start a worker for them again and again. */
export function noteWaiting(home: string, summary: WorkerSummary): void {
  if (summary.waiting) noteJobsWaiting(home, commandEnv(), 'no extraction model configured');
  else if (summary.done + summary.retried + summary.failed > 0) clearJobsWaiting(home);
}
