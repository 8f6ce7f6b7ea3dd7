import type { Command } from 'commander';
import { RecallError } from '../../core/errors.js';
import { transcriptArg } from './endless-common.js';
import { openEndless } from './open-endless.js';
import { runEndlessFork, type ForkFlags } from './endless-fork-run.js';

/** The commander form; `recall endless fork` usually runs through endless-fork-fast.ts instead, with the same result. */
export function registerEndlessFork(endless: Command): void {
  endless
    .command('fork <transcript>')
    .description('write a compressed copy of a session (a .jsonl path or a session id) as a new session beside it; the original is never modified')
    .option('--in-place', 'compress the transcript file itself (locked, backed up, validated, renamed atomically, rolled back on failure)')
    .option('--keep-recent <n>', 'keep the last N tool results whole (default: endless.keepRecent)', parseCount('--keep-recent'))
    .option('--min-chars <n>', 'compress tool results of at least N characters (default: endless.minChars)', parseCount('--min-chars'))
    .option('--read-min-chars <n>', 'the same for Read results (default: endless.readMinChars)', parseCount('--read-min-chars'))
    .option('--fork-min-chars <n>', 'also compress results of other tools, and Read or edit results a later call superseded, from N characters up (default: endless.forkMinChars)', parseCount('--fork-min-chars'))
    .option('--no-model', 'use stored observations and the deterministic reduction only; never call the model')
    .option('--json', 'print the result as JSON')
    .action(async (transcript: string, flags: ForkFlags) => {
      const path = transcriptArg(transcript);
      await runEndlessFork(path, flags, openEndless('cli.endless'));
    });
}

function parseCount(name: string) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < 0) throw new RecallError('INPUT_INVALID', `${name} must be a whole number >= 0, got "${value}"`);
    return n;
  };
}
