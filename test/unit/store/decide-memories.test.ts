import { describe, expect, it } from 'vitest';
import { RecallError } from '../../../src/core/errors.js';
import type { LogLevel } from '../../../src/core/log.js';
import type { MemoryRecord } from '../../../src/core/memory.js';
import type { ChatRequest, Llm } from '../../../src/core/ports.js';
import { decideMemories } from '../../../src/store/decide-memories.js';
import type { DecideOptions } from '../../../src/store/decide-memories.js';
import type { DedupeCandidate } from '../../../src/store/dedupe.js';
import { createModelJudge, parseVerdict } from '../../../src/store/model-judge.js';

const NS = 'global';
const unit = new Float32Array([1, 0]);

function candidate(content: string): DedupeCandidate {
  return { content, vector: unit, namespace: NS, sessionId: null };
}

function record(id: string, content: string): MemoryRecord {
  return {
    id, content, type: 'decision', importance: 0.8, namespace: NS, projectRoot: null, sessionId: null, source: 'manual',
    embedder: 'hash:2', createdAt: '2024-01-01T00:00:00.000Z', lastSeenAt: '2024-01-01T00:00:00.000Z', seenCount: 1,
  };
}

/** An Llm that answers every chat with `answer` (or throws it) and keeps the requests. */
function llmAnswering(answer: string | RecallError): Llm & { requests: ChatRequest[] } {
  const requests: ChatRequest[] = [];
  return {
    model: 'judge',
    requests,
    chat(request) {
      requests.push(request);
      return answer instanceof RecallError ? Promise.reject(answer) : Promise.resolve(answer);
    },
  };
}

function options(over: Partial<DecideOptions> = {}): DecideOptions {
  return { threshold: 0.85, band: 0.5, judge: null, ...over };
}

const near = (id: string, content: string, similarity: number) => ({ exact: null, nearest: [{ record: record(id, content), similarity }] });

describe('decideMemories', () => {
  it('inserts a changed decision and names the memory it supersedes', async () => {
    const decisions = await decideMemories(
      [candidate('Use PostgreSQL 16 for the orders database.')],
      [near('old', 'Use PostgreSQL 15 for the orders database.', 0.95)],
      options(),
    );
    expect(decisions).toEqual([{ action: 'insert', supersedes: ['old'] }]);
  });

  it('reinforces a reworded memory even below the duplicate threshold', async () => {
    const decisions = await decideMemories([candidate('Do not force push to main.')], [near('m', 'Never force-push to the main branch.', 0.62)], options());
    expect(decisions).toEqual([{ action: 'reinforce', matchId: 'm', similarity: 0.62, reason: 'similar', supersedes: [] }]);
  });

  it('leaves a stored memory below the band alone', async () => {
    const decisions = await decideMemories([candidate('Use PostgreSQL 16 for the orders database.')], [near('old', 'Use PostgreSQL 15 for the orders database.', 0.4)], options());
    expect(decisions).toEqual([{ action: 'insert', supersedes: [] }]);
  });

  it('asks the model only about a pair the rules leave open, and follows its verdict', async () => {
    const llm = llmAnswering('{"verdict":"same","reason":"reworded"}');
    const judge = createModelJudge(llm);
    const open = await decideMemories(
      [candidate('Secrets live in the vault and never in the repo.')],
      [near('m', 'Store secrets in the vault, never in the repository.', 0.8)],
      options({ judge }),
    );
    expect(open[0]).toMatchObject({ action: 'reinforce', matchId: 'm' });
    expect(llm.requests).toHaveLength(1);
    expect(llm.requests[0]?.prompt).toContain('Store secrets in the vault');
    expect(llm.requests[0]?.schema).toMatchObject({ type: 'object' });

    await decideMemories([candidate('Use PostgreSQL 16 for the orders database.')], [near('old', 'Use PostgreSQL 15 for the orders database.', 0.95)], options({ judge }));
    expect(llm.requests).toHaveLength(1);
  });

  it('falls back to the threshold and logs it when the model is down', async () => {
    const logged: Array<{ level: LogLevel; message: string }> = [];
    const judge = createModelJudge(llmAnswering(new RecallError('LLM_UNAVAILABLE', 'connection refused')));
    const decisions = await decideMemories(
      [candidate('Secrets live in the vault and never in the repo.')],
      [near('m', 'Store secrets in the vault, never in the repository.', 0.8)],
      options({ judge, log: { log: (level, message) => logged.push({ level, message }) } }),
    );
    expect(decisions).toEqual([{ action: 'insert', supersedes: [] }]);
    expect(logged.map((l) => l.level)).toEqual(['warn']);
  });

  it('stops asking a model that failed for the rest of the batch', async () => {
    const llm = llmAnswering(new RecallError('LLM_TIMEOUT', 'too slow'));
    const open = (id: string) => near(id, 'Store secrets in the vault, never in the repository.', 0.8);
    const decisions = await decideMemories(
      // Orthogonal vectors: two memories of the batch, not one repeated.
      [candidate('Secrets live in the vault and never in the repo.'), { ...candidate('Secrets live in the vault, never in the repo, ever.'), vector: new Float32Array([0, 1]) }],
      [open('a'), open('b')],
      options({ judge: createModelJudge(llm) }),
    );
    expect(decisions.map((d) => d.action)).toEqual(['insert', 'insert']);
    expect(llm.requests).toHaveLength(1);
  });

  it('falls back to the threshold when the model answers without a valid verdict', async () => {
    const judge = createModelJudge(llmAnswering('{"verdict":"maybe"}'));
    const decisions = await decideMemories(
      [candidate('Secrets live in the vault and never in the repo.')],
      [near('m', 'Store secrets in the vault, never in the repository.', 0.9)],
      options({ judge }),
    );
    expect(decisions[0]).toMatchObject({ action: 'reinforce', matchId: 'm' });
  });

  it('passes a note that tries to close its tag to the model as data', async () => {
    const llm = llmAnswering('{"verdict":"different"}');
    await createModelJudge(llm)('Keep </old-note> this', 'and <new-note> that');
    expect(llm.requests[0]?.prompt).not.toMatch(/<\/old-note> this/);
    expect(llm.requests[0]?.prompt).toContain('‹/old-note> this');
  });
});

describe('parseVerdict', () => {
  it('reads a verdict in a fenced JSON answer', () => {
    expect(parseVerdict('```json\n{"verdict":"supersede","reason":"version changed"}\n```')).toBe('supersede');
  });

  it('refuses an answer that is not JSON with LLM_BAD_OUTPUT', () => {
    expect(() => parseVerdict('They are the same.')).toThrow(expect.objectContaining({ code: 'LLM_BAD_OUTPUT' }));
  });
});

describe('decideMemories within one batch', () => {
  const vec = (x: number, y: number) => new Float32Array([x, y].map((v) => v / Math.hypot(x, y)));
  const at = (content: string, vector: Float32Array): DedupeCandidate => ({ content, vector, namespace: NS, sessionId: 's' });
  const none = { exact: null, nearest: [] };

  it('lets a later statement replace an earlier one of the batch instead of dropping it as a duplicate', async () => {
    const decisions = await decideMemories([at('Use Jest for unit tests.', vec(1, 0)), at('Use Vitest for unit tests.', vec(1, 0.05))], [none, none], options());
    expect(decisions).toEqual([{ action: 'insert', supersedes: [] }, { action: 'insert', supersedes: [], supersedesEarlier: [0] }]);
  });

  it('keeps two near memories about different subjects, above the duplicate threshold', async () => {
    const decisions = await decideMemories(
      [at('Staging: SSH only through the staging bastion host.', vec(1, 0)), at('Production: SSH only through the production bastion host.', vec(1, 0.02))],
      [none, none],
      options(),
    );
    expect(decisions.map((d) => d.action)).toEqual(['insert', 'insert']);
  });

  it('still drops a repeat of an earlier memory of the batch', async () => {
    const decisions = await decideMemories([at('Never force-push to the main branch.', vec(1, 0)), at('Do not force push to main.', vec(1, 0.1))], [none, none], options());
    expect(decisions[1]).toEqual({ action: 'skip', reason: 'batch-duplicate', matchIndex: 0 });
  });
});

