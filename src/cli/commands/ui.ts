import type { Command } from 'commander';
import { RecallError } from '../../core/errors.js';
import { commandEnv } from '../terminal.js';
import { withRuntime } from '../context.js';
import { out } from '../output.js';

const HELP = `
Pages: memories (search, filter, newest first), one memory (edit, forget, versions), review
(quarantined memories: approve or forget), next session (the SessionStart context each project gets
now), sessions (captures, failed jobs, retry), Endless (savings), health (recall doctor).

Security: it listens on 127.0.0.1 only; each start makes a new random token, carried by the printed
URL once and then by an HttpOnly SameSite=Strict cookie; requests with another Host or Origin are
refused; every change is a POST carrying the token. Stop it with Ctrl-C.`;

export function registerUi(program: Command): void {
  program
    .command('ui')
    .description('a local web page over your memories: browse, search, edit, review, preview the next session')
    .option('--port <n>', 'port on 127.0.0.1 (0 picks a free one)', parsePort, 0)
    .option('--no-open', 'do not open a browser')
    .option('--json', 'print {"url": ...} instead of the line')
    .addHelpText('after', HELP)
    .action(async (opts: { port: number; open: boolean; json?: boolean }) => {
      await withRuntime(async (runtime, logger) => {
        const [{ startUi }, { openBrowser }] = await Promise.all([import('../../ui/start-ui.js'), import('../../ui/open-browser.js')]);
        const handle = await startUi({ port: opts.port, runtime, logger, env: commandEnv(), cwd: process.cwd() });
        if (opts.json) out.json({ url: handle.url });
        else out.line(`recall ui: ${handle.url}`);
        if (opts.open) openBrowser(handle.url);
        await new Promise<void>((resolve) => {
          for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => resolve());
        });
        await handle.close();
      });
    });
}

function parsePort(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65_535) throw new RecallError('INPUT_INVALID', `--port must be 0..65535, got "${value}"`);
  return n;
}
