/** Human-readable lines for `recall install` / `uninstall`. Pure. */
import type { HookChange } from './merge-hooks.js';
import type { TargetOutcome } from './run-install.js';

export function renderInstallReport(outcomes: readonly TargetOutcome[], extraLines: readonly string[] = []): string[] {
  const lines = outcomes.flatMap(renderOutcome);
  // Every target of one run gets the same state dir: say it once.
  const home = outcomes.find((o) => o.recallHome)?.recallHome;
  if (home) lines.push(`hooks use RECALL_HOME=${home}`);
  lines.push(...extraLines);
  if (outcomes.some((o) => o.dryRun)) lines.push('dry run: nothing written');
  return lines;
}

function renderOutcome(outcome: TargetOutcome): string[] {
  const lines = [`${outcome.agent}: ${headline(outcome)}`];
  if (outcome.dryRun && outcome.diff.length > 0) lines.push(`  hooks in ${outcome.file}:`, ...outcome.diff.map((line) => `    ${line}`));
  if (outcome.backup) lines.push(`  backup: ${outcome.backup}`);
  for (const note of outcome.notes) lines.push(`  note: ${note}`);
  return lines;
}

const VERBS = {
  installed: { present: 'install', past: 'installed', shows: ['added', 'updated'], preposition: 'in' },
  updated: { present: 'update', past: 'updated', shows: ['updated'], preposition: 'in' },
  removed: { present: 'remove', past: 'removed', shows: ['removed'], preposition: 'from' },
} as const;

function headline(o: TargetOutcome): string {
  if (o.status === 'already-installed') return `already installed in ${o.file}; nothing to change`;
  if (o.status === 'not-installed') return `recall's hooks are not in ${o.file}; nothing to remove`;
  const verb = VERBS[o.status];
  const what = `${events(o.hooks, verb.shows)} hooks ${verb.preposition} ${o.file}`;
  return o.dryRun ? `would ${verb.present} ${what}` : `${verb.past} ${what}${o.created ? ' (new file)' : ''}`;
}

function events(changes: readonly HookChange[], actions: readonly HookChange['action'][]): string {
  return [...new Set(changes.filter((c) => actions.includes(c.action)).map((c) => c.event))].join(', ');
}
