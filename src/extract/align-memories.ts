/**
 * `recall eval`'s memories side by side: per session, the memories of every model lined up by meaning, so a
 * row holds what each model wrote for the same thing (or nothing). Two memories share a row when their
 * vectors are at least `threshold` alike (the dedupe threshold, as for the overlap); each goes to the row it
 * is most alike, one memory per model a row. Pure: the vectors are handed in.
 */
import { cosineSimilarity } from '../core/cosine-similarity.js';
import type { MemoryType } from '../core/memory.js';
import { outcomesOf, type MemoryOutcome, type SessionRun } from './compare-models.js';

export interface AlignedMemory {
  content: string;
  type: MemoryType;
  verdict: MemoryOutcome['verdict'];
}

export interface AlignedSession {
  session: string;
  /** The models that ran on this session, in the order given. */
  models: string[];
  /** One row per memory meaning: per model, what it wrote, or null. */
  rows: Array<Record<string, AlignedMemory | null>>;
}

export function alignMemories(runs: readonly SessionRun[], vectorOf: (content: string) => Float32Array, threshold: number): AlignedSession[] {
  const sessions = [...new Set(runs.map((run) => run.session))];
  return sessions.map((session) => {
    const ran = runs.filter((run) => run.session === session && run.error === null);
    const models = ran.map((run) => run.model);
    const rows: Array<Map<string, AlignedMemory>> = [];
    for (const run of ran) {
      for (const { content, type, verdict } of outcomesOf(run)) {
        const memory: AlignedMemory = { content, type, verdict };
        const mine = vectorOf(memory.content);
        let best: Map<string, AlignedMemory> | undefined;
        let bestScore = threshold;
        for (const row of rows) {
          if (row.has(run.model)) continue;
          const score = Math.max(...[...row.values()].map((other) => cosineSimilarity(mine, vectorOf(other.content))));
          if (score >= bestScore) {
            best = row;
            bestScore = score;
          }
        }
        if (best === undefined) rows.push(new Map([[run.model, memory]]));
        else best.set(run.model, memory);
      }
    }
    return { session, models, rows: rows.map((row) => Object.fromEntries(models.map((model) => [model, row.get(model) ?? null]))) };
  });
}
