import type { Command } from 'commander';
import { RecallError } from '../../core/errors.js';
import { join } from 'node:path';
import type { StatePaths } from '../../core/state-paths.js';
import { daemonAnswers, requestDaemon, serveSocketPath } from '../../serve-client/serve-client.js';
import { inspectServeSocket, serveSocketProblem } from '../../serve/serve-socket-state.js';
import type { UiStarter } from '../../serve/serve-ui-op.js';
import { lastOutputLines, spawnDetachedServe } from '../../serve/spawn-detached-serve.js';
import { openState } from '../context.js';
import { out } from '../output.js';
import { terminalSafe } from '../terminal-safe.js';
import { commandEnv } from '../terminal.js';

const DETACH_WAIT_MS = 60_000;

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
        await startDetached(socketPath, loaded.paths);
        return;
      }
      const [{ startServe }, { runServedCommand }] = await Promise.all([import('../../serve/run-serve.js'), import('../served-commands.js')]);
      const handle = await startServe(loaded, logger, runServedCommand, hostUiInDaemon);
      out.line(`recall serve listening on ${handle.socketPath} (Ctrl-C or \`recall serve --stop\` to stop)`);
      for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.once(signal, () => void handle.close());
      await handle.closed;
    });
}

/** How the daemon starts a `recall ui` page for a client: loaded on the first such request. */
const hostUiInDaemon: UiStarter = async (options) => {
  const { startUi } = await import('../../ui/start-ui.js');
  return startUi({ ...options, env: commandEnv(), servedBy: 'recall serve' });
};

/** Starts the daemon in the background and returns once it answers; says why when it cannot start or dies first. */
async function startDetached(socketPath: string, paths: StatePaths): Promise<void> {
  const state = await inspectServeSocket(socketPath, typeof process.getuid === 'function' ? process.getuid() : null);
  if (state.kind === 'daemon') {
    out.line(`recall serve is already running on ${socketPath}${state.pid !== null ? ` (pid ${state.pid})` : ''}`);
    return;
  }
  const problem = serveSocketProblem(state, socketPath);
  if (problem !== null) throw problem;
  const outputFile = join(paths.home, 'serve.out');
  let daemon;
  try {
    daemon = await spawnDetachedServe(commandEnv(), paths.home, outputFile);
  } catch (err) {
    throw new RecallError('STATE_UNWRITABLE', `could not start recall serve: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`, { cause: err });
  }
  let exit: number | string | null = null;
  void daemon.exited.then((code) => (exit = code));
  const deadline = Date.now() + DETACH_WAIT_MS;
  while (Date.now() < deadline && exit === null) {
    if (await daemonAnswers(socketPath, 2_000)) {
      daemon.release();
      out.line(`recall serve is running on ${socketPath}`);
      return;
    }
    await Promise.race([daemon.exited, new Promise((resolve) => setTimeout(resolve, 200))]);
  }
  if (exit === null) {
    daemon.release();
    throw new RecallError('STATE_UNWRITABLE', `recall serve (pid ${daemon.pid}) did not answer within ${DETACH_WAIT_MS / 1000} s; see ${outputFile} and ${paths.logFile}`);
  }
  const said = lastOutputLines(outputFile).map(terminalSafe).join(' | ');
  throw new RecallError('STATE_UNWRITABLE', `recall serve exited (${exit}) before it answered${said ? `: ${said}` : ''}; see ${paths.logFile}`);
}
