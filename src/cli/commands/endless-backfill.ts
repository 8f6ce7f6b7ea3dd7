import type { Command } from 'commander';
import { backfillSession } from '../../endless/backfill-session.js';
import { out } from '../output.js';
import { progressLine, transcriptArg } from './endless-common.js';
import { openEndless } from './open-endless.js';
import { setExitCode } from '../terminal.js';

export function registerEndlessBackfill(endless: Command): void {
  endless
    .command('backfill <transcript>')
    .description('create the missing observations of an existing session with the model (resumable: a second run continues)')
    .option('--retry', 'also retry outputs whose earlier attempts all failed')
    .option('--json', 'print the result as JSON')
    .action(async (transcript: string, flags: { retry?: boolean; json?: boolean }) => {
      const path = transcriptArg(transcript);
      const deps = openEndless('cli.endless');
      const print = progressLine(!flags.json && process.stderr.isTTY === true);
      const summary = await backfillSession(path, {
        ...deps,
        retry: flags.retry === true,
        onProgress: (done, total, ref, outcome) => print(done, total, `${ref.toolName} ${ref.toolUseId}: ${outcome}`),
      });
      deps.logger.log('info', 'backfill finished', { ...summary });
      if (flags.json) out.json(summary);
      else {
        out.line(`backfill ${summary.sessionId}: ${summary.eligible} eligible tool results, ${summary.created} observations created, ${summary.had} already there, ${summary.failed} failed, ${summary.skipped} skipped`);
      }
      if (summary.stoppedBy) {
        out.error(`stopped early: ${summary.stoppedBy}`);
        setExitCode(1);
      } else if (summary.failed > 0) setExitCode(1);
    });
}
