/**
 * Agreement between models in `recall eval`: a memory of one model counts as found by another when that
 * model wrote one of the same session whose vector is at least `threshold` alike (the dedupe threshold,
 * so "the same memory" means what it means when storing). Pure: the vectors are handed in.
 */
import { cosineSimilarity } from '../core/cosine-similarity.js';
import type { SessionRun } from './compare-models.js';

export interface ModelOverlap {
  /** Per other model, how many of this model's memories it also found. */
  withModel: Record<string, number>;
  /** How many of this model's memories at least one other model found. */
  withAny: number;
}

export function measureOverlap(runs: readonly SessionRun[], vectorOf: (content: string) => Float32Array, threshold: number): Map<string, ModelOverlap> {
  const result = new Map<string, ModelOverlap>();
  const models = [...new Set(runs.map((run) => run.model))];
  for (const model of models) {
    const overlap: ModelOverlap = { withModel: Object.fromEntries(models.filter((m) => m !== model).map((m) => [m, 0])), withAny: 0 };
    for (const run of runs.filter((r) => r.model === model)) {
      const others = runs.filter((r) => r.model !== model && r.session === run.session);
      for (const memory of run.memories) {
        const mine = vectorOf(memory.content);
        const finders = others.filter((other) => other.memories.some((m) => cosineSimilarity(mine, vectorOf(m.content)) >= threshold));
        for (const finder of new Set(finders.map((f) => f.model))) overlap.withModel[finder] = (overlap.withModel[finder] ?? 0) + 1;
        if (finders.length > 0) overlap.withAny += 1;
      }
    }
    result.set(model, overlap);
  }
  return result;
}
