/**
 * What the `recall endless` commands share, in a module light enough for the fast `endless fork`
 * path (node built-ins only: no commander, no config schema, no table renderer): the transcript
 * argument, the progress line and percentages.
 */
import { homedir } from 'node:os';
import { join } from 'node:path';
import { resolveTranscript } from '../../endless/resolve-transcript.js';
import { lines } from '../lines.js';
import { commandEnv } from '../terminal.js';

/** A transcript argument: a path, or a session id found under the Claude Code config dir. */
export function transcriptArg(arg: string): string {
  const claudeDir = commandEnv().CLAUDE_CONFIG_DIR?.trim() || join(homedir(), '.claude');
  return resolveTranscript(arg, claudeDir, process.cwd());
}


/** One line per step on a terminal (`[####------] 4/10 Bash toolu_01…`), nothing when piped. */
export function progressLine(enabled: boolean): (done: number, total: number, label: string) => void {
  return (done, total, label) => {
    if (!enabled || total === 0) return;
    const filled = Math.round((done / total) * 20);
    lines.warn(`[${'#'.repeat(filled)}${'-'.repeat(20 - filled)}] ${done}/${total} ${label}`);
  };
}

export function formatPercent(before: number, after: number): string {
  if (before === 0) return '0%';
  const change = ((after - before) / before) * 100;
  return `${change > 0 ? '+' : ''}${change.toFixed(0)}%`;
}
