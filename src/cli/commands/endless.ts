/** `recall endless ...`: the one file that registers Endless Mode's commands (fork, backfill, stats, the hidden background completion). */
import type { Command } from 'commander';
import { registerEndlessBackfill } from './endless-backfill.js';
import { registerEndlessComplete } from './endless-complete.js';
import { registerEndlessFork } from './endless-fork.js';
import { registerEndlessStats } from './endless-stats.js';

export function registerEndless(program: Command): void {
  const endless = program
    .command('endless')
    .description('Endless Mode: compact observations in place of large tool outputs (hook, fork, backfill, stats)');
  registerEndlessFork(endless);
  registerEndlessBackfill(endless);
  registerEndlessStats(endless);
  registerEndlessComplete(endless);
}
