import type { Command } from 'commander';
import { endProcessNow } from '../../core/end-process-now.js';
import { countFallbackJobs } from '../../queue/adopt-fallback.js';
import { Spool } from '../../queue/spool.js';
import { runWorker } from '../../worker/run-worker.js';
import { withRuntime } from '../context.js';
import { noteWaiting } from './worker.js';
import { out } from '../output.js';
import { terminalSafe } from '../terminal-safe.js';
import { setExitCode } from '../terminal.js';

export function registerDrain(program: Command): void {
  program
    .command('drain')
    .description('process every queued capture now, including those waiting for a retry, then exit')
    .option('--json', 'print the summary as JSON')
    .action(async (opts: { json?: boolean }) => {
      let timedOut = false;
      await withRuntime(async (runtime, logger) => {
        const summary = await runWorker(runtime, logger, {
          ignoreBackoff: true,
          linger: false,
          // Long enough to take over the lock of a worker that died.
          waitForLockMs: runtime.config.queue.lockStaleMs + 2_000,
          onJob: opts.json
            ? undefined
            : (entry, outcome) => {
                const id = entry.job?.id ?? entry.file;
                if (outcome.kind === 'done') {
                  const r = outcome.result;
                  out.line(r.status === 'stored' ? `${id}: ${r.inserted.length} new, ${r.reinforced} reinforced (${r.namespace})` : `${id}: skipped, ${terminalSafe(r.why)}`);
                } else out.line(`${id}: ${outcome.kind}, ${terminalSafe(outcome.error)}`);
              },
        });
        noteWaiting(runtime.loaded.paths.home, summary);
        // Jobs a hook queued in the fallback spool that the state dir still cannot take.
        const inFallback = countFallbackJobs(runtime.loaded.paths.home);
        // Jobs this drain could not run because another worker kept the queue the whole time.
        const counts = new Spool(runtime.loaded.paths).counts();
        const leftWaiting = summary.lockHeld ? counts.pending + counts.processing : 0;
        timedOut = summary.timedOut !== null;
        if (summary.failed > 0 || summary.retried > 0 || inFallback > 0 || summary.lockLost !== null || leftWaiting > 0 || timedOut) setExitCode(1);
        if (opts.json) {
          out.json({ ...summary, inFallback, leftWaiting });
          return;
        }
        if (leftWaiting > 0) out.line(`could not run ${leftWaiting} queued job(s): another worker held the queue lock all the while this drain waited for it; it runs them, and if \`recall status\` shows no progress, stop that worker`);
        else if (summary.lockHeld) out.line('another worker is draining the queue right now; it will run the queued jobs');
        else if (summary.waiting) out.line('jobs are waiting: no extraction model is configured (set RECALL_OLLAMA_LLM_MODEL)');
        if (summary.lockLost !== null) out.line('stopped early: this process stalled past the lock stale time and another worker took over the queue; it runs the rest');
        if (summary.adopted > 0) out.line(`${summary.adopted} job(s) moved in from the fallback spool (queued while the state dir was full)`);
        out.line(`${summary.done} captured, ${summary.retried} to retry, ${summary.failed} failed`);
        if (inFallback > 0) out.line(`${inFallback} job(s) still wait in the fallback spool: the state dir cannot take them (full disk?); free space and run \`recall drain\` again`);
        if (timedOut) out.line(`stopped: ${summary.timedOut}; this drain ends now with it`);
      });
      // The stopped job's work may still be pending in this process, maybe in a read that never returns:
      // end the process at once, killed by its own hand (exit status 137; see end-process-now.ts).
      if (timedOut) await endProcessNow();
    });
}
