/** `recall endless ...`: Endless Mode's resume-time fork, backfill, stats and the hidden background completion. */
import type { Command } from 'commander';
import type { CompleteDeps } from '../../endless/complete-observation.js';
import { settingsFromConfig } from '../../endless/endless-settings.js';
import { requestObservation } from '../../endless/ollama-observe.js';
import { openState } from '../context.js';
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

/** The parsed config turned into what the endless stages take, with the real model client. */
export function openEndless(component: string): CompleteDeps & { lockStaleMs: number; keepRecent: number } {
  const { loaded, logger } = openState(component);
  const settings = settingsFromConfig(loaded.config);
  return {
    home: loaded.paths.home,
    settings,
    observe: requestObservation,
    now: () => Date.now(),
    logger,
    lockStaleMs: loaded.config.queue.lockStaleMs,
    keepRecent: settings.keepRecent,
  };
}
