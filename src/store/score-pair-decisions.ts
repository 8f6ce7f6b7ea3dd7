/**
 * Accuracy of the same / supersede / different decision on labelled pairs of memories (the test set in
 * test/fixtures/supersede/ and bench/supersede-decisions.mjs): each pair embedded, judged as a capture
 * would judge a stored memory and a new one, and compared with its label, overall and per kind.
 */
import { z } from 'zod';
import type { Embedder } from '../core/ports.js';
import { cosineSimilarity } from '../core/cosine-similarity.js';
import { classifyPair } from './decide-memories.js';
import type { DecideOptions } from './decide-memories.js';

const pairSchema = z.object({
  old: z.string().min(1),
  new: z.string().min(1),
  label: z.enum(['same', 'supersede', 'different']),
  kind: z.enum(['paraphrase', 'update', 'contradiction', 'unrelated', 'related-but-different', 'different-subject', 'refinement', 'scope']),
});

export type LabelledPair = z.infer<typeof pairSchema>;

export interface PairScore {
  pairs: number;
  correct: number;
  accuracy: number;
  byKind: Record<string, { pairs: number; correct: number; accuracy: number }>;
  wrong: Array<LabelledPair & { got: string; similarity: number }>;
}

/** One pair per non-blank line; throws on a line that is not a labelled pair. */
export function parseLabelledPairs(text: string): LabelledPair[] {
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => pairSchema.parse(JSON.parse(line)));
}

export async function scorePairDecisions(pairs: readonly LabelledPair[], embedder: Embedder, options: DecideOptions): Promise<PairScore> {
  const vectors = await embedder.embed(pairs.flatMap((p) => [p.old, p.new]));
  const byKind: PairScore['byKind'] = {};
  const wrong: PairScore['wrong'] = [];
  let correct = 0;
  for (const [i, pair] of pairs.entries()) {
    const similarity = cosineSimilarity(vectors[2 * i] as Float32Array, vectors[2 * i + 1] as Float32Array);
    const got = await classifyPair(pair.old, pair.new, similarity, options);
    const kind = (byKind[pair.kind] ??= { pairs: 0, correct: 0, accuracy: 0 });
    kind.pairs += 1;
    if (got === pair.label) {
      correct += 1;
      kind.correct += 1;
    } else {
      wrong.push({ ...pair, got, similarity });
    }
  }
  for (const kind of Object.values(byKind)) kind.accuracy = kind.correct / kind.pairs;
  return { pairs: pairs.length, correct, accuracy: pairs.length === 0 ? 0 : correct / pairs.length, byKind, wrong };
}
