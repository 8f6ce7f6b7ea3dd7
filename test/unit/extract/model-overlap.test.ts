import { describe, expect, it } from 'vitest';
import type { SessionRun } from '../../../src/extract/compare-models.js';
import { measureOverlap } from '../../../src/extract/model-overlap.js';

const VECTORS: Record<string, number[]> = { pnpm: [1, 0, 0], pnpm2: [0.99, 0.1, 0], cents: [0, 1, 0], tabs: [0, 0, 1] };
const run = (model: string, session: string, contents: string[]): SessionRun => ({
  model, session, memories: contents.map((content) => ({ content, type: 'decision', importance: 1 })), dropped: 0, schemaRetry: false, failed: false,
  error: null, seconds: 1, outputTokens: 0, outputSeconds: 0, effect: null, outcomes: [],
});

describe('measureOverlap', () => {
  it('counts a memory as found by another model when it wrote a like one in the same session', () => {
    const runs = [run('a', 's1', ['pnpm', 'cents']), run('b', 's1', ['pnpm2']), run('c', 's1', ['tabs']), run('c', 's2', ['cents'])];
    const overlap = measureOverlap(runs, (text) => new Float32Array(VECTORS[text]!), 0.9);
    expect(overlap.get('a')).toEqual({ withModel: { b: 1, c: 0 }, withAny: 1 });
    expect(overlap.get('b')).toEqual({ withModel: { a: 1, c: 0 }, withAny: 1 });
    // c's "cents" is of another session than a's: not the same finding.
    expect(overlap.get('c')).toEqual({ withModel: { a: 0, b: 0 }, withAny: 0 });
  });
});
