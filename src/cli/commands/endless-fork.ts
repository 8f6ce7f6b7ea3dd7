import type { Command } from 'commander';
import { randomUUID } from 'node:crypto';
import { RecallError } from '../../core/errors.js';
import { compressInPlace, forkSession, type ForkSummary } from '../../endless/fork-session.js';
import type { ToolResultRef } from '../../endless/fork-transcript.js';
import { estimateTokens } from '../../endless/measure-conversation.js';
import { formatCount } from '../../endless/render-compressed.js';
import { out } from '../output.js';
import { formatPercent, openEndless, progressLine, transcriptArg } from './endless.js';

interface ForkFlags {
  inPlace?: boolean;
  keepRecent?: number;
  minChars?: number;
  readMinChars?: number;
  model: boolean;
  json?: boolean;
}

export function registerEndlessFork(endless: Command): void {
  endless
    .command('fork <transcript>')
    .description('write a compressed copy of a session (a .jsonl path or a session id) as a new session beside it; the original is never modified')
    .option('--in-place', 'compress the transcript file itself (locked, backed up, validated, renamed atomically, rolled back on failure)')
    .option('--keep-recent <n>', 'keep the last N tool results whole (default: endless.keepRecent)', parseCount('--keep-recent'))
    .option('--min-chars <n>', 'compress tool results of at least N characters (default: endless.minChars)', parseCount('--min-chars'))
    .option('--read-min-chars <n>', 'the same for Read results (default: endless.readMinChars)', parseCount('--read-min-chars'))
    .option('--no-model', 'use stored observations and the deterministic reduction only; never call the model')
    .option('--json', 'print the result as JSON')
    .action(async (transcript: string, flags: ForkFlags) => {
      const path = transcriptArg(transcript);
      const deps = openEndless('cli.endless');
      const print = progressLine(!flags.json && process.stderr.isTTY === true && flags.model);
      const settings = { ...deps.settings, minChars: flags.minChars ?? deps.settings.minChars, readMinChars: flags.readMinChars ?? deps.settings.readMinChars };
      const options = {
        ...deps,
        settings,
        keepRecent: flags.keepRecent ?? deps.keepRecent,
        useModel: flags.model,
        onProgress: (done: number, total: number, ref: ToolResultRef) => print(done, total, `${ref.toolName} ${ref.toolUseId}`),
      };
      const summary = flags.inPlace ? await compressInPlace(path, options) : await forkSession(path, randomUUID(), options);
      deps.logger.log('info', flags.inPlace ? 'compressed a transcript in place' : 'forked a compressed session', { source: path, output: summary.outputPath, compressed: summary.compressed });
      if (flags.json) out.json({ ...summary, resumeCommand: flags.inPlace ? null : `claude --resume ${summary.newSessionId}` });
      else printSummary(summary, flags.inPlace === true);
    });
}

function printSummary(s: ForkSummary, inPlace: boolean): void {
  const what = inPlace ? `compressed ${s.sourcePath} in place` : `forked ${s.sessionId} into ${s.newSessionId}`;
  out.line(`${what}: ${s.compressed} of ${s.results} tool results compressed (${s.observations} observations, ${s.reductions} reductions)`);
  const tokens = (chars: number): string => `${formatCount(chars)} chars (~${formatCount(estimateTokens(chars))} tokens)`;
  out.line(`  conversation  ${tokens(s.before.chars)} -> ${tokens(s.after.chars)}  ${formatPercent(s.before.chars, s.after.chars)}`);
  out.line(`  tool results  ${tokens(s.before.toolResultChars)} -> ${tokens(s.after.toolResultChars)}  ${formatPercent(s.before.toolResultChars, s.after.toolResultChars)}`);
  out.line(`  compressed    ${tokens(s.replaced.before)} -> ${tokens(s.replaced.after)}  ${formatPercent(s.replaced.before, s.replaced.after)}`);
  out.line(`  file          ${formatCount(s.before.fileChars)} chars -> ${formatCount(s.after.fileChars)} chars  ${formatPercent(s.before.fileChars, s.after.fileChars)}`);
  if (s.droppedPartialTail) out.line('  note: the last line was still being written and was left out');
  if (s.modelError) out.line(`  note: the model was not used after: ${s.modelError}`);
  if (inPlace) {
    if (s.backupPath) out.line(`  backup        ${s.backupPath}`);
    else out.line('  nothing to compress; the file was not touched');
    return;
  }
  out.line(`  written to    ${s.outputPath} (the original is unchanged)`);
  out.line(`resume it with: ${s.cwd ? `cd ${JSON.stringify(s.cwd)} && ` : ''}claude --resume ${s.newSessionId}`);
}

function parseCount(name: string) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < 0) throw new RecallError('INPUT_INVALID', `${name} must be a whole number >= 0, got "${value}"`);
    return n;
  };
}
