import type { Command } from 'commander';
import { RecallError } from '../../core/errors.js';
import { spawnDetached } from '../../hook/spawn-worker.js';
import { daemonAnswers, requestDaemon, serveSocketPath } from '../../serve/serve-client.js';
import { openState } from '../context.js';
import { out } from '../output.js';

export function registerServe(program: Command): void {
  program
    .command('serve')
    .description('keep the memory table and the embedder warm behind a Unix socket in the state dir; search, list, the capture worker and context refreshes use it when it is up')
    .option('--detach', 'start it in the background and return once it answers')
    .option('--stop', 'stop a running recall serve')
    .action(async (opts: { detach?: boolean; stop?: boolean }) => {
      const { loaded, logger } = openState('serve');
      const socketPath = serveSocketPath(loaded.paths.home);
      if (opts.stop) {
        const answer = await requestDaemon(socketPath, { v: 1, stop: true }, 5_000);
        out.line(answer ? 'recall serve stopped' : 'recall serve is not running');
        return;
      }
      if (opts.detach) {
        if (!(await spawnDetached(['serve'], process.env, loaded.paths.home))) throw new RecallError('STATE_UNWRITABLE', 'could not start recall serve');
        const deadline = Date.now() + 60_000;
        while (Date.now() < deadline) {
          if (await daemonAnswers(socketPath, 2_000)) {
            out.line(`recall serve is running on ${socketPath}`);
            return;
          }
          await new Promise((resolve) => setTimeout(resolve, 200));
        }
        throw new RecallError('STATE_UNWRITABLE', `recall serve did not answer within 60 s; see ${loaded.paths.logFile}`);
      }
      const { startServe } = await import('../../serve/run-serve.js');
      const handle = await startServe(loaded, logger);
      out.line(`recall serve listening on ${handle.socketPath} (Ctrl-C or \`recall serve --stop\` to stop)`);
      for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.once(signal, () => void handle.close());
      await handle.closed;
    });
}
