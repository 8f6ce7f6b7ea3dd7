import { describe, expect, it } from 'vitest';
import { comparisonRows, summarizeRuns } from '../../../src/extract/compare-models.js';
import type { SessionRun } from '../../../src/extract/compare-models.js';

const run = (model: string, types: SessionRun['memories'][number]['type'][], extra: Partial<SessionRun> = {}): SessionRun => ({
  model,
  session: 's',
  memories: types.map((type, i) => ({ content: `memory ${i}`, type, importance: 1 })),
  dropped: 0,
  schemaRetry: false,
  failed: false,
  error: null,
  seconds: 10,
  outputTokens: 100,
  outputSeconds: 2,
  effect: { duplicates: 1, supersedes: 0, fresh: types.length - 1 },
  outcomes: [],
  ...extra,
});

describe('summarizeRuns', () => {
  it('sums each model over its sessions, in the order the models were given', () => {
    const runs = [
      run('a', ['golden_rule', 'pattern']),
      run('b', ['decision']),
      run('a', ['pattern'], { schemaRetry: true, seconds: 20, dropped: 2 }),
      run('b', [], { failed: true, effect: null, seconds: 4 }),
    ];
    const [a, b] = summarizeRuns(runs, ['a', 'b']);
    expect(a).toMatchObject({ sessions: 2, memories: 3, memoriesPerSession: 1.5, dropped: 2, schemaRetries: 1, failedSessions: 0, secondsPerSession: 15 });
    expect(a?.byType).toMatchObject({ golden_rule: 1, pattern: 2, decision: 0 });
    expect(a?.effect).toEqual({ duplicates: 2, supersedes: 0, fresh: 1 });
    expect(b).toMatchObject({ sessions: 2, memories: 1, failedSessions: 1, secondsPerSession: 7 });
    // Only the session whose store effect was looked at counts toward it.
    expect(b?.effect).toEqual({ duplicates: 1, supersedes: 0, fresh: 0 });
  });

  it('keeps a model that failed apart: its error, no figures, and the others summed as before', () => {
    const error = { code: 'LLM_UNAVAILABLE', message: 'Ollama answered 500' };
    const runs = [run('a', ['pattern']), run('b', [], { error, effect: null, outputTokens: 0, outputSeconds: 0 })];
    const [a, b] = summarizeRuns(runs, ['a', 'b']);
    expect(a).toMatchObject({ sessions: 1, memories: 1, error: null, erroredSessions: 0, tokensPerSecond: 50 });
    expect(b).toMatchObject({ sessions: 0, memories: 0, error, erroredSessions: 1, tokensPerSecond: null });
    const rows = comparisonRows([a!, b!]);
    expect(rows.find((row) => row[0] === 'memories per session')).toEqual(['memories per session', '1', 'failed']);
  });

  it('lists the stored memories each model would replace, with the text that replaces them', () => {
    const outcomes = [{ content: 'You MUST run the tests.', type: 'golden_rule' as const, verdict: 'replaces' as const, duplicateOf: null, replaces: [{ id: 'g1', content: 'Never push to main without review.' }] }];
    const [a] = summarizeRuns([run('a', ['golden_rule'], { outcomes })], ['a']);
    expect(a?.replaced).toEqual([{ id: 'g1', content: 'Never push to main without review.', by: 'You MUST run the tests.' }]);
  });

  it('says n/a where no session of a model could be compared with the store', () => {
    const rows = comparisonRows(summarizeRuns([run('a', ['pattern'], { effect: null })], ['a']));
    expect(rows.find((row) => row[0] === 'duplicates of stored memories')).toEqual(['duplicates of stored memories', 'n/a']);
  });
});
