import type { Command } from 'commander';
import { runWorker } from '../../worker/run-worker.js';
import { withRuntime } from '../context.js';
import { out } from '../output.js';

export function registerDrain(program: Command): void {
  program
    .command('drain')
    .description('process every queued capture now, including those waiting for a retry, then exit')
    .option('--json', 'print the summary as JSON')
    .action(async (opts: { json?: boolean }) => {
      await withRuntime(async (runtime, logger) => {
        const summary = await runWorker(runtime, logger, {
          ignoreBackoff: true,
          linger: false,
          // Long enough to take over the lock of a worker that died.
          waitForLockMs: runtime.config.queue.lockStaleMs + 2_000,
          onLockLost: (err) => {
            throw err;
          },
          onJob: opts.json
            ? undefined
            : (entry, outcome) => {
                const id = entry.job?.id ?? entry.file;
                if (outcome.kind === 'done') {
                  const r = outcome.result;
                  out.line(r.status === 'stored' ? `${id}: ${r.inserted.length} new, ${r.reinforced} reinforced (${r.namespace})` : `${id}: skipped, ${r.why}`);
                } else out.line(`${id}: ${outcome.kind}, ${outcome.error}`);
              },
        });
        if (summary.failed > 0 || summary.retried > 0) process.exitCode = 1;
        if (opts.json) {
          out.json(summary);
          return;
        }
        if (summary.lockHeld) out.line('another worker is draining the queue right now; it will run the queued jobs');
        else if (summary.waiting) out.line('jobs are waiting: no extraction model is configured (set RECALL_OLLAMA_LLM_MODEL)');
        out.line(`${summary.done} captured, ${summary.retried} to retry, ${summary.failed} failed`);
      });
    });
}
