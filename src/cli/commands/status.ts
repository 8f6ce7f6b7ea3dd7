import type { Command } from 'commander';
import { describeError } from '../../core/errors.js';
import { adoptFallbackJobs, countFallbackJobs } from '../../queue/adopt-fallback.js';
import { existingFallbackDirs } from '../../queue/fallback-spool.js';
import { Spool } from '../../queue/spool.js';
import { serveAllowed } from '../../core/process-switches.js';
import { pingDaemon, serveSocketPath } from '../../serve-client/serve-client.js';
import { readHistory } from '../../worker/history.js';
import { withRuntime } from '../context.js';
import { formatAge } from '../../core/format.js';
import { out } from '../output.js';
import { terminalSafe } from '../terminal-safe.js';
import { commandEnv } from '../terminal.js';

export function registerStatus(program: Command): void {
  program
    .command('status')
    .description('show the capture queue, the store and why jobs wait, if they do')
    .option('--json', 'print the status as JSON')
    .action(async (opts: { json?: boolean }) => {
      await withRuntime(async (runtime, logger) => {
        const { config, paths } = runtime.loaded;
        const spool = new Spool(paths);
        // Jobs a hook queued in the fallback spool while the state dir was full: in now if there is room.
        const adoption = adoptFallbackJobs(paths.home, spool.dir('pending'));
        if (adoption.adopted > 0) logger.log('warn', 'adopted jobs a hook queued in the fallback spool while the state dir was unwritable', { adopted: adoption.adopted });
        const counts = { ...spool.counts(), fallback: countFallbackJobs(paths.home) };
        const pending = spool.list('pending').flatMap((e) => (e.job ? [e.job] : []));
        const failed = spool.list('failed').map((e) => ({ id: e.job?.id ?? e.file, attempts: e.job?.attempts ?? null, error: e.job?.lastError ?? 'not a valid job file' }));
        const retrying = pending.filter((job) => job.notBefore !== null);
        const history = readHistory(paths.historyFile);
        // The queue is the point of `status`: a store that cannot be opened (a shared one that is down,
        // a damaged one) is reported beside it, not instead of it.
        const memories = await runtime
          .store()
          .then((store) => store.count())
          .then((count) => ({ count, problem: null }), (err: unknown) => ({ count: null, problem: describeError(err) }));
        const socket = serveSocketPath(paths.home);
        const daemon = await pingDaemon(socket, SERVE_PING_MS);
        const status = {
          home: paths.home,
          queue: {
            ...counts,
            oldestPending: pending[0]?.enqueuedAt ?? null,
            retrying: retrying.length,
            nextRetryAt: spool.nextRetryAt()?.toISOString() ?? null,
          },
          memories: memories.count,
          storeProblem: memories.problem,
          model: config.ollama.llmModel ?? null,
          ollamaHost: config.ollama.host,
          embedder: config.embedder.id,
          waiting: waitingReason(config.ollama.llmModel, counts.pending, retrying.map((j) => j.lastError)),
          fallback: counts.fallback > 0 ? { jobs: counts.fallback, dirs: existingFallbackDirs(paths.home), problem: adoption.problems[0] ?? null } : null,
          lastCapture: history.at(-1) ?? null,
          // Whether `recall serve` answers for this state dir, and whether this process may use it.
          serve: { running: daemon !== null, pid: daemon?.pid ?? null, socket, used: daemon !== null && serveAllowed(commandEnv()) },
          failed,
        };
        if (opts.json) {
          out.json(status);
          return;
        }
        out.line(`state      ${status.home}`);
        out.line(`model      ${status.model ?? '(not set: RECALL_OLLAMA_LLM_MODEL)'} at ${status.ollamaHost}`);
        out.line(`embedder   ${status.embedder}`);
        out.line(`memories   ${status.memories ?? `unknown: ${status.storeProblem ?? ''}`}`);
        out.line(`serve      ${serveLine(status.serve)}`);
        out.line(`queue      ${counts.pending} pending (${retrying.length} waiting to retry), ${counts.processing} processing, ${counts.failed} failed`);
        if (status.lastCapture) out.line(`last       ${status.lastCapture.status} ${formatAge(status.lastCapture.at)} ago in ${status.lastCapture.namespace}`);
        if (status.waiting) out.line(`waiting    ${terminalSafe(status.waiting)}`);
        if (status.fallback) {
          out.line(`fallback   ${status.fallback.jobs} job(s) queued in ${status.fallback.dirs.join(', ')} while the state dir was full; they move in once it has room`);
          if (status.fallback.problem) out.line(`           ${status.fallback.problem}`);
        }
        for (const job of failed) out.line(`failed     ${terminalSafe(job.id)}: ${terminalSafe(job.error)}  (run \`recall retry\`)`);
      });
    });
}

/** A daemon that does not answer its ping within this is reported as not running. */
const SERVE_PING_MS = 1_000;

function serveLine(serve: { running: boolean; pid: number | null; socket: string; used: boolean }): string {
  if (!serve.running) return 'not running (`recall serve --detach` keeps search warm)';
  const running = `running${serve.pid === null ? '' : ` (pid ${serve.pid})`} on ${serve.socket}`;
  return serve.used ? running : `${running}; not used here: RECALL_NO_SERVE is set`;
}

function waitingReason(model: string | undefined, pending: number, retryErrors: (string | null)[]): string | null {
  if (pending === 0) return null;
  if (!model) return `${pending} job(s) wait for an extraction model: set RECALL_OLLAMA_LLM_MODEL (for example \`export RECALL_OLLAMA_LLM_MODEL=llama3.2\`) and run \`recall drain\``;
  const last = retryErrors.find((e) => e !== null);
  return last ? `retrying after: ${last}` : null;
}
