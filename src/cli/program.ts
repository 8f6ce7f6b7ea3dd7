/** The command-line program: one place that turns errors into a message and an exit code. */
import { readFileSync } from 'node:fs';
import { Command, CommanderError } from 'commander';
import { RecallError } from '../core/errors.js';
import { out } from './output.js';
import { registerCapture } from './commands/capture.js';
import { registerDrain } from './commands/drain.js';
import { registerList } from './commands/list.js';
import { registerRetry } from './commands/retry.js';
import { registerSearch } from './commands/search.js';
import { registerStatus } from './commands/status.js';
import { registerWorker } from './commands/worker.js';

export function buildProgram(): Command {
  const program = new Command('recall')
    .description('Local, offline memory for coding agents.')
    .version(VERSION)
    .showHelpAfterError('(run with --help for usage)')
    .configureOutput({ outputError: (text, write) => write(`recall: ${text.replace(/^error: /, '')}`) });
  program
    .command('hook <event>')
    .description('run an agent hook (session-end); reads the hook JSON from stdin and prints one JSON object');
  registerCapture(program);
  registerDrain(program);
  registerStatus(program);
  registerList(program);
  registerSearch(program);
  registerRetry(program);
  registerWorker(program);
  return program;
}

const VERSION = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

export async function runCli(argv: string[]): Promise<void> {
  const program = buildProgram().exitOverride();
  try {
    await program.parseAsync(argv);
  } catch (err) {
    process.exitCode = exitCodeFor(err);
  }
}

function exitCodeFor(err: unknown): number {
  if (err instanceof CommanderError) {
    // Help and version exit 0; usage errors were already printed by commander.
    return err.exitCode;
  }
  if (err instanceof RecallError) {
    out.error(err.message);
    return 1;
  }
  out.error(`unexpected error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  return 2;
}
