/**
 * Which global memories a project overrides: a project memory that the rules read as a change of a
 * global one ("MUST use pnpm" here, "MUST use npm" for all projects). In that project's context the
 * project rule wins and the global one is marked as overridden there; the global rule itself stays
 * current for every other project (a project memory never hides a global one). Rules only, no model:
 * this runs on every context render. Pure.
 */
import type { MemoryRecord } from '../core/memory.js';
import { judgeReadings, readForJudging } from '../store/supersede-rules.js';
import type { ReadRule } from '../store/supersede-rules.js';

/** Two rules must share at least this many content words before they are compared at all. */
const MIN_SHARED_WORDS = 1;

export function findOverriddenGlobals(project: readonly MemoryRecord[], global: readonly MemoryRecord[]): Set<string> {
  const overridden = new Set<string>();
  const rules = (list: readonly MemoryRecord[]) => list.filter((m) => m.type !== 'session').map((m) => ({ m, read: readForJudging(m.content) }));
  const globals = rules(global);
  if (globals.length === 0) return overridden;
  const byWord = new Map<string, number[]>();
  globals.forEach((g, i) => {
    for (const w of new Set(g.read.rule.words)) byWord.set(w, [...(byWord.get(w) ?? []), i]);
  });
  for (const p of rules(project)) {
    const shared = new Map<number, number>();
    for (const w of new Set(p.read.rule.words)) for (const i of byWord.get(w) ?? []) shared.set(i, (shared.get(i) ?? 0) + 1);
    for (const [i, count] of shared) {
      const g = globals[i] as { m: MemoryRecord; read: ReadRule };
      if (count < MIN_SHARED_WORDS || overridden.has(g.m.id)) continue;
      // Similarity plays no part here: 0 against a threshold of 1 leaves the decision to the words.
      if (judgeReadings(g.read, p.read, 0, 1).verdict === 'supersede') overridden.add(g.m.id);
    }
  }
  return overridden;
}
