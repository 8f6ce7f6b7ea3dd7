import { describe, expect, it } from 'vitest';
import type { MemoryRecord } from '../../../src/core/memory.js';
import { cosineSimilarity } from '../../../src/core/cosine-similarity.js';
import { planDedupe } from '../../../src/store/dedupe.js';
import type { DedupeCandidate, DedupeLookup } from '../../../src/store/dedupe.js';

const NS = 'project:app-12345678';
const THRESHOLD = 0.9;

function vec(...xs: number[]): Float32Array {
  const norm = Math.hypot(...xs);
  return new Float32Array(xs.map((x) => x / norm));
}

function candidate(content: string, vector: Float32Array, over: Partial<DedupeCandidate> = {}): DedupeCandidate {
  return { content, vector, namespace: NS, sessionId: 'session-b', ...over };
}

function record(id: string, over: Partial<MemoryRecord> = {}): MemoryRecord {
  return {
    id, content: 'stored', type: 'preference', importance: 0.7, namespace: NS, projectRoot: '/p',
    sessionId: 'session-a', source: 'claude', embedder: 'test', createdAt: '2024-01-01T00:00:00.000Z',
    lastSeenAt: '2024-01-01T00:00:00.000Z', seenCount: 1, ...over,
  };
}

const none: DedupeLookup = { exact: null, nearest: [] };

describe('planDedupe', () => {
  it('inserts a candidate with no exact or similar match', () => {
    const far = { record: record('m1'), similarity: 0.5 };
    expect(planDedupe([candidate('use pnpm', vec(1, 0))], [{ exact: null, nearest: [far] }], THRESHOLD)).toEqual([
      { action: 'insert', supersedes: [] },
    ]);
  });

  it('reinforces an exact text match with similarity 1', () => {
    const decisions = planDedupe([candidate('Use pnpm.', vec(1, 0))], [{ exact: record('m1'), nearest: [] }], THRESHOLD);
    expect(decisions).toEqual([{ action: 'reinforce', matchId: 'm1', similarity: 1, reason: 'exact', supersedes: [] }]);
  });

  it('reinforces the most similar stored memory at or above the threshold', () => {
    const nearest = [
      { record: record('m1'), similarity: 0.91 },
      { record: record('m2'), similarity: 0.97 },
    ];
    expect(planDedupe([candidate('x', vec(1, 0))], [{ exact: null, nearest }], THRESHOLD)).toEqual([
      { action: 'reinforce', matchId: 'm2', similarity: 0.97, reason: 'similar', supersedes: [] },
    ]);
  });

  it('counts a similarity exactly at the threshold as a match', () => {
    const nearest = [{ record: record('m1'), similarity: THRESHOLD }];
    expect(planDedupe([candidate('x', vec(1, 0))], [{ exact: null, nearest }], THRESHOLD)[0]?.action).toBe('reinforce');
  });

  it('skips a match that was recorded by the same session instead of reinforcing it', () => {
    const mine = record('m1', { sessionId: 'session-b' });
    expect(planDedupe([candidate('x', vec(1, 0))], [{ exact: mine, nearest: [] }], THRESHOLD)).toEqual([
      { action: 'skip', reason: 'same-session', matchId: 'm1' },
    ]);
    expect(planDedupe([candidate('x', vec(1, 0))], [{ exact: null, nearest: [{ record: mine, similarity: 0.95 }] }], THRESHOLD)).toEqual([
      { action: 'skip', reason: 'same-session', matchId: 'm1' },
    ]);
  });

  it('does not treat two unknown (null) sessions as the same session', () => {
    const stored = record('m1', { sessionId: null });
    const decisions = planDedupe([candidate('x', vec(1, 0), { sessionId: null })], [{ exact: stored, nearest: [] }], THRESHOLD);
    expect(decisions[0]?.action).toBe('reinforce');
  });

  it('skips a candidate that repeats the text of an earlier one in the batch', () => {
    const decisions = planDedupe(
      [candidate('Use pnpm', vec(1, 0)), candidate('use  PNPM.', vec(0, 1))],
      [none, none],
      THRESHOLD,
    );
    expect(decisions).toEqual([{ action: 'insert', supersedes: [] }, { action: 'skip', reason: 'batch-duplicate', matchIndex: 0 }]);
  });

  it('skips a candidate whose vector is near an earlier one in the batch', () => {
    const decisions = planDedupe(
      [candidate('a', vec(1, 0, 0)), candidate('b', vec(0, 1, 0)), candidate('c', vec(0.05, 1, 0))],
      [none, none, none],
      THRESHOLD,
    );
    expect(decisions).toEqual([
      { action: 'insert', supersedes: [] },
      { action: 'insert', supersedes: [] },
      { action: 'skip', reason: 'batch-duplicate', matchIndex: 1 },
    ]);
  });

  it('does not compare candidates from different namespaces', () => {
    const decisions = planDedupe(
      [candidate('same', vec(1, 0)), candidate('same', vec(1, 0), { namespace: 'global' })],
      [none, none],
      THRESHOLD,
    );
    expect(decisions).toEqual([{ action: 'insert', supersedes: [] }, { action: 'insert', supersedes: [] }]);
  });

  it('reinforces a stored memory only once per batch', () => {
    const stored = record('m1');
    const decisions = planDedupe(
      [candidate('alpha', vec(1, 0, 0)), candidate('beta', vec(0, 0, 1))],
      [
        { exact: null, nearest: [{ record: stored, similarity: 0.95 }] },
        { exact: null, nearest: [{ record: stored, similarity: 0.93 }] },
      ],
      THRESHOLD,
    );
    expect(decisions).toEqual([
      { action: 'reinforce', matchId: 'm1', similarity: 0.95, reason: 'similar', supersedes: [] },
      { action: 'skip', reason: 'batch-duplicate', matchIndex: 0 },
    ]);
  });

  it('prefers an exact stored match over an earlier batch duplicate', () => {
    const decisions = planDedupe(
      [candidate('a', vec(1, 0)), candidate('b', vec(1, 0))],
      [none, { exact: record('m1'), nearest: [] }],
      THRESHOLD,
    );
    expect(decisions[1]).toEqual({ action: 'reinforce', matchId: 'm1', similarity: 1, reason: 'exact', supersedes: [] });
  });

  it('refuses lookups that do not line up with the candidates', () => {
    expect(() => planDedupe([candidate('a', vec(1, 0))], [], THRESHOLD)).toThrow(RangeError);
  });
});

describe('cosineSimilarity', () => {
  it('is 1 for parallel vectors, 0 for orthogonal ones and 0 for a zero vector', () => {
    expect(cosineSimilarity(new Float32Array([2, 0]), new Float32Array([5, 0]))).toBeCloseTo(1);
    expect(cosineSimilarity(vec(1, 0), vec(0, 1))).toBe(0);
    expect(cosineSimilarity(new Float32Array([0, 0]), vec(1, 0))).toBe(0);
  });
});
