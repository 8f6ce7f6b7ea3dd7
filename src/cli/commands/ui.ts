import type { Command } from 'commander';
import { RecallError } from '../../core/errors.js';
import { startUpkeepIfDue } from '../../app/start-upkeep.js';
import { serveLink } from '../../serve-client/serve-client.js';
import { serveIdentity } from '../../serve-client/serve-identity.js';
import { openUiThroughServe } from '../../serve-client/served-ui.js';
import { commandEnv } from '../terminal.js';
import { openState, withRuntime } from '../context.js';
import { out } from '../output.js';

const HELP = `
Pages: memories (totals, search, filter, newest first, add a memory), one memory (edit, forget,
versions), review (held memories by reason, project and source: approve or forget, one or many), next
session (the SessionStart context each project gets now, each line linked, what was left out),
sessions (waiting and failed captures, retry, history), Endless (savings), health (recall doctor).
Forgetting asks first and can be undone for 30 minutes; no script needed. See docs/ui.md.

With \`recall serve\` running (same embedder and store settings), the page is served from inside the
daemon, over its open table and loaded model, until this command stops; otherwise from this process.

Security: it listens on 127.0.0.1 only; each start makes a new random session token that lives only in
an HttpOnly SameSite=Strict cookie and the page's forms. The printed URL and the one handed to the
browser opener (whose command line other local users can read) each carry their own one-time code,
traded for the cookie on first use and dead afterwards (and after 10 minutes unused); requests with
another Host or Origin are refused; every change is a POST carrying the token. Stop it with Ctrl-C.`;

interface UiFlags {
  port: number;
  open: boolean;
  json?: boolean;
}

export function registerUi(program: Command): void {
  program
    .command('ui')
    .description('a local web page over your memories: browse, search, edit, review, preview the next session')
    .option('--port <n>', 'port on 127.0.0.1 (0 picks a free one)', parsePort, 0)
    .option('--no-open', 'do not open a browser')
    .option('--json', 'print {"url": ...} instead of the line')
    .addHelpText('after', HELP)
    .action(async (opts: UiFlags) => {
      if (await runThroughServe(opts)) return;
      await withRuntime(async (runtime, logger) => {
        const [{ startUi }, { openBrowser }] = await Promise.all([import('../../ui/start-ui.js'), import('../../ui/open-browser.js')]);
        const handle = await startUi({ port: opts.port, runtime, logger, env: commandEnv(), cwd: process.cwd(), servedBy: 'recall ui' });
        announce(handle, opts, openBrowser);
        // A store filled without upkeep (an import elsewhere, an older recall) gets its indexes now, in
        // the background, as after a capture: without them a search of 100k rows reads every vector.
        // Once the first page is answered: checking whether upkeep is due reads the table's versions
        // and index statistics, CPU the first request would otherwise share.
        void handle.firstPageAnswered.then(() => startUpkeepIfDue(runtime, logger));
        await untilInterrupted();
        await handle.close();
      });
    });
}

/**
 * The page hosted by a running `recall serve` with this configuration, until Ctrl-C (the daemon then
 * stops it) or the daemon stops; false when no such daemon takes it, and this process serves it.
 */
async function runThroughServe(opts: UiFlags): Promise<boolean> {
  const { loaded } = openState('ui');
  const socketPath = serveLink(loaded.paths.home, commandEnv());
  if (socketPath === null) return false;
  const served = await openUiThroughServe(socketPath, {
    v: 1, op: 'ui', expect: serveIdentity(loaded.config, loaded.paths.dbDir), port: opts.port, cwd: process.cwd(),
  });
  if (served === null) return false;
  const { openBrowser } = await import('../../ui/open-browser.js');
  announce(served, opts, openBrowser);
  const interrupted = await Promise.race([untilInterrupted().then(() => true), served.ended.then(() => false)]);
  if (!interrupted) throw new RecallError('STATE_UNWRITABLE', `recall serve (pid ${served.pid}) stopped, and the page with it; run recall ui again`);
  await served.close();
  return true;
}

/** Prints one one-time URL and hands the opener another: neither carries the session's secret. */
function announce(urls: { url: string; openUrl: string }, opts: UiFlags, openBrowser: (url: string) => void): void {
  if (opts.json) out.json({ url: urls.url });
  else out.line(`recall ui: ${urls.url}`);
  if (opts.open && urls.openUrl !== '') openBrowser(urls.openUrl);
}

function untilInterrupted(): Promise<void> {
  return new Promise<void>((resolve) => {
    for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => resolve());
  });
}

function parsePort(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65_535) throw new RecallError('INPUT_INVALID', `--port must be 0..65535, got "${value}"`);
  return n;
}
