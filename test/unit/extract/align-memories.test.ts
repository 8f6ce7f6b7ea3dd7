import { describe, expect, it } from 'vitest';
import { alignMemories } from '../../../src/extract/align-memories.js';
import type { SessionRun } from '../../../src/extract/compare-models.js';

function run(model: string, session: string, contents: string[], error: SessionRun['error'] = null): SessionRun {
  return {
    model,
    session,
    memories: contents.map((content) => ({ content, type: 'preference', importance: 0.7 })),
    dropped: 0,
    schemaRetry: false,
    failed: false,
    error,
    seconds: 0,
    outputTokens: 0,
    outputSeconds: 0,
    effect: null,
    outcomes: [],
  };
}

/** Each text names its direction: texts starting with the same letter point the same way. */
const vectorOf = (content: string): Float32Array => {
  const axis = { a: [1, 0, 0], b: [0, 1, 0], c: [0, 0, 1] }[content[0] as 'a' | 'b' | 'c'];
  const near = content.includes('near') ? [0.2, 0.2, 0.2] : [0, 0, 0];
  return Float32Array.from(axis.map((v, i) => v + (near[i] ?? 0)));
};

describe('alignMemories', () => {
  it('puts memories of one meaning in one row, each in the row it is most alike, one per model', () => {
    const runs = [run('m1', 's', ['a one', 'b one']), run('m2', 's', ['b two', 'a near', 'a two']), run('m3', 's', [], { code: 'LLM_TIMEOUT', message: 'timed out' })];
    const [session] = alignMemories(runs, vectorOf, 0.85);
    expect(session?.models).toEqual(['m1', 'm2']);
    const rows = session!.rows.map((row) => [row['m1']?.content ?? null, row['m2']?.content ?? null]);
    // "a two" matches "a one" exactly, better than "a near" does, but "a near" came first and took the row:
    // the row is taken, so "a two" starts its own.
    expect(rows).toEqual([
      ['a one', 'a near'],
      ['b one', 'b two'],
      [null, 'a two'],
    ]);
  });

  it('keeps sessions apart', () => {
    const aligned = alignMemories([run('m1', 's1', ['a one']), run('m2', 's2', ['a one'])], vectorOf, 0.85);
    expect(aligned.map((s) => s.rows.length)).toEqual([1, 1]);
  });
});
