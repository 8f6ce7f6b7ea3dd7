import type { Command } from 'commander';
import { requeueFailed } from '../../queue/requeue-failed.js';
import { spawnDetachedWorker } from '../../hook/spawn-worker.js';
import { openState } from '../context.js';
import { out } from '../output.js';
import { commandEnv } from '../terminal.js';

export function registerRetry(program: Command): void {
  program
    .command('retry')
    .description('move failed captures back to the queue and start a worker for them')
    .option('--no-start', 'only move the jobs; do not start a worker')
    .option('--json', 'print the result as JSON')
    .action(async (opts: { start: boolean; json?: boolean }) => {
      const { loaded } = openState();
      const moved = requeueFailed(loaded.paths);
      const started = moved > 0 && opts.start ? (await spawnDetachedWorker(commandEnv(), loaded.paths.home)) !== 'failed' : false;
      if (opts.json) out.json({ moved, workerStarted: started });
      else out.line(moved === 0 ? 'no failed jobs' : `${moved} job(s) queued again${started ? '; a worker is running them' : ''}`);
    });
}
