/** `recall endless ...`: Endless Mode's resume-time fork, backfill, stats and the hidden background completion. */
import type { Command } from 'commander';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { CompleteDeps } from '../../endless/complete-observation.js';
import { settingsFromConfig } from '../../endless/endless-settings.js';
import { requestObservation } from '../../endless/ollama-observe.js';
import { resolveTranscript } from '../../endless/resolve-transcript.js';
import { openState } from '../context.js';
import { out } from '../output.js';
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

/** A transcript argument: a path, or a session id found under the Claude Code config dir. */
export function transcriptArg(arg: string): string {
  const claudeDir = process.env.CLAUDE_CONFIG_DIR?.trim() || join(homedir(), '.claude');
  return resolveTranscript(arg, claudeDir, process.cwd());
}

/** One line per step on a terminal (`[####------] 4/10 Bash toolu_01…`), nothing when piped. */
export function progressLine(enabled: boolean): (done: number, total: number, label: string) => void {
  return (done, total, label) => {
    if (!enabled || total === 0) return;
    const filled = Math.round((done / total) * 20);
    out.warn(`[${'#'.repeat(filled)}${'-'.repeat(20 - filled)}] ${done}/${total} ${label}`);
  };
}

export function formatPercent(before: number, after: number): string {
  if (before === 0) return '0%';
  const change = ((after - before) / before) * 100;
  return `${change > 0 ? '+' : ''}${change.toFixed(0)}%`;
}
