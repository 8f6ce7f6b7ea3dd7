/** `recall eval` for a person: each model's memories as it would store them, and the memories side by side. */
import type { AlignedMemory, AlignedSession } from '../../extract/align-memories.js';
import { outcomesOf, type ModelSummary, type SessionRun } from '../../extract/compare-models.js';
import { terminalSafe } from '../terminal-safe.js';

const MARKS: Record<AlignedMemory['verdict'], string> = { new: '+', duplicate: '=', replaces: '~' };

/** One model's memories as it would store them, and what they would replace, terminal-safe. */
export function describeModel(summary: ModelSummary, runs: readonly SessionRun[]): string {
  const lines = [``, `${summary.model}:`];
  const sessions = (n: number): string => `${n} session${n === 1 ? '' : 's'}`;
  if (summary.error !== null) lines.push(`  failed on ${sessions(summary.erroredSessions)}: ${terminalSafe(summary.error.message)}`);
  if (summary.failedSessions > 0) lines.push(`  no usable answer on ${sessions(summary.failedSessions)} (not the JSON asked for, with or without the schema)`);
  for (const run of runs.filter((r) => r.model === summary.model && r.error === null)) {
    for (const o of outcomesOf(run)) {
      lines.push(`  ${MARKS[o.verdict]} [${o.type}] ${terminalSafe(o.content)}`);
      for (const r of o.replaces) lines.push(`      replaces ${r.id}: ${terminalSafe(r.content)}`);
    }
  }
  if (lines.length === 2) lines.push('  (no memories)');
  return lines.join('\n');
}

/**
 * One session's memories lined up by meaning: a block per meaning, a line per model with what it wrote
 * (marked as in the lists above) or "(nothing)", so the models' wordings of one rule sit together.
 */
export function describeSideBySide(session: AlignedSession): string {
  const lines = ['', `side by side, ${terminalSafe(session.session)}:`];
  if (session.rows.length === 0) lines.push('  (no model wrote a memory)');
  const width = Math.max(0, ...session.models.map((model) => model.length));
  session.rows.forEach((row, i) => {
    if (i > 0) lines.push('');
    for (const model of session.models) {
      const memory = row[model];
      const text = memory == null ? '(nothing)' : `${MARKS[memory.verdict]} [${memory.type}] ${terminalSafe(memory.content)}`;
      lines.push(`  ${terminalSafe(model.padEnd(width))}  ${text}`);
    }
  });
  return lines.join('\n');
}
