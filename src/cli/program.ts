/** The command-line program: one place that turns errors into a message and an exit code. */
import { readFileSync } from 'node:fs';
import { Command } from 'commander';
import { exitCodeFor } from './exit-code.js';
import { out } from './output.js';
import { currentExitCode } from './terminal.js';
import { warnUnknownConfigKeys } from './warn-unknown-keys.js';
import { registerCapture } from './commands/capture.js';
import { registerEval } from './commands/eval.js';
import { registerPrompt } from './commands/prompt.js';
import { registerConfig } from './commands/config.js';
import { registerDoctor } from './commands/doctor.js';
import { registerDrain } from './commands/drain.js';
import { registerEndless } from './commands/endless.js';
import { registerInstall } from './commands/install.js';
import { registerList } from './commands/list.js';
import { registerRetry } from './commands/retry.js';
import { registerSearch } from './commands/search.js';
import { registerServe } from './commands/serve.js';
import { registerStatus } from './commands/status.js';
import { registerUninstall } from './commands/uninstall.js';
import { registerWorker } from './commands/worker.js';
import { registerAdd } from './commands/add.js';
import { registerExport } from './commands/export.js';
import { registerForget } from './commands/forget.js';
import { registerImport } from './commands/import.js';
import { registerReindex } from './commands/reindex.js';
import { registerShow } from './commands/show.js';
import { registerStats } from './commands/stats.js';
import { registerMcp } from './commands/mcp.js';
import { registerRepair } from './commands/repair.js';
import { registerReview } from './commands/review.js';
import { registerRestore } from './commands/restore.js';
import { registerUi } from './commands/ui.js';

export function buildProgram(): Command {
  const program = new Command('recall')
    .description('Local, offline memory for coding agents.')
    .version(VERSION)
    .showHelpAfterError('(run with --help for usage)')
    .configureOutput({
      writeOut: (text) => out.raw('stdout', text),
      writeErr: (text) => out.raw('stderr', text),
      outputError: (text, write) => write(`recall: ${text.replace(/^error: /, '')}`),
    })
    // Help, --version and usage errors end in a CommanderError instead of process.exit: commands take
    // this over when they are added, so it must come first (`recall serve` runs them in its own process).
    .exitOverride()
    .hook('preAction', warnUnknownConfigKeys);
  program
    .command('hook <event>')
    .description('run an agent hook (session-end, session-start, post-tool-use, stop); reads the hook JSON on stdin, prints one JSON object, always exits 0');
  registerCapture(program);
  registerEval(program);
  registerPrompt(program);
  registerDrain(program);
  registerStatus(program);
  registerList(program);
  registerSearch(program);
  registerServe(program);
  registerShow(program);
  registerAdd(program);
  registerForget(program);
  registerReview(program);
  registerRestore(program);
  registerUi(program);
  registerExport(program);
  registerImport(program);
  registerStats(program);
  registerReindex(program);
  registerRepair(program);
  registerRetry(program);
  registerWorker(program);
  registerInstall(program);
  registerUninstall(program);
  registerDoctor(program);
  registerConfig(program);
  registerEndless(program);
  registerMcp(program);
  return program;
}


const VERSION = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

export async function runCli(argv: string[]): Promise<void> {
  const code = await executeCli(argv);
  if (code !== 0) process.exitCode = code;
}

/** Runs one command line and returns its exit code. */
export async function executeCli(argv: string[], program: Command = buildProgram()): Promise<number> {
  try {
    await program.parseAsync(argv);
    return currentExitCode();
  } catch (err) {
    return exitCodeFor(err);
  }
}
