import { describe, expect, it } from 'vitest';
import { RecallError, isRecallError } from '../../../src/core/errors.js';
import type { ChatRequest, Llm } from '../../../src/core/ports.js';
import {
  emptySessionMemory,
  estimateNumCtx,
  extractMemories,
  firstUserRequest,
  memoriesAnswerJsonSchema,
} from '../../../src/extract/extract-memories.js';
import { loadPrompt } from '../../../src/extract/load-prompt.js';

type Step = string | RecallError;

/** An Llm that answers from a script, one step per call, and records every request. */
function scriptedLlm(...steps: Step[]): Llm & { requests: ChatRequest[] } {
  const requests: ChatRequest[] = [];
  return {
    model: 'double',
    requests,
    async chat(request) {
      requests.push(request);
      const step = steps[requests.length - 1];
      if (step === undefined) throw new Error(`unexpected call #${requests.length}`);
      if (step instanceof RecallError) throw step;
      return step;
    },
  };
}

const TRANSCRIPT = 'User: Set up the API. You MUST use pnpm, not npm.\nAssistant: Done, switched to pnpm.';
const ANSWER = JSON.stringify({
  memories: [
    { content: 'You MUST use pnpm, not npm.', type: 'golden_rule' },
    { content: 'Session: set up the API project with pnpm.', type: 'session' },
  ],
});

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (err) {
    return err;
  }
  throw new Error('expected a rejection');
}

describe('extractMemories', () => {
  it('returns the parsed memories with importance from their type', async () => {
    const llm = scriptedLlm(ANSWER);
    const memories = await extractMemories(TRANSCRIPT, { llm, minNumCtx: 8192 });
    expect(memories).toEqual([
      { content: 'You MUST use pnpm, not npm.', type: 'golden_rule', importance: 1.0 },
      { content: 'Session: set up the API project with pnpm.', type: 'session', importance: 0.3 },
    ]);
  });

  it('sends the system prompt file and the transcript inside the user prompt', async () => {
    const llm = scriptedLlm(ANSWER);
    await extractMemories(TRANSCRIPT, { llm, minNumCtx: 8192 });
    const [request] = llm.requests;
    expect(request?.system).toBe(await loadPrompt('extract-memories.system'));
    expect(request?.prompt).toContain(`<transcript>\n${TRANSCRIPT}\n</transcript>`);
    expect(request?.prompt).not.toContain('{{transcript}}');
  });

  it('inserts a transcript containing $& and {{transcript}} literally', async () => {
    const llm = scriptedLlm(ANSWER);
    const tricky = "User: replace with '$&' and keep {{transcript}} as text";
    await extractMemories(tricky, { llm, minNumCtx: 8192 });
    expect(llm.requests[0]?.prompt).toContain(tricky);
  });

  it('sends the answer JSON schema derived from the zod schema', async () => {
    const llm = scriptedLlm(ANSWER);
    await extractMemories(TRANSCRIPT, { llm, minNumCtx: 8192 });
    expect(llm.requests[0]?.schema).toEqual(memoriesAnswerJsonSchema());
    expect(memoriesAnswerJsonSchema()).toMatchObject({
      type: 'object',
      required: ['memories'],
      properties: {
        memories: {
          type: 'array',
          items: {
            required: ['content', 'type'],
            properties: { type: { enum: ['golden_rule', 'preference', 'decision', 'pattern', 'session'] } },
          },
        },
      },
    });
  });

  it('sends minNumCtx when the prompt is small', async () => {
    const llm = scriptedLlm(ANSWER);
    await extractMemories(TRANSCRIPT, { llm, minNumCtx: 8192 });
    expect(llm.requests[0]?.numCtx).toBe(8192);
  });

  it('raises numCtx to fit a long prompt, in multiples of 1024', async () => {
    const llm = scriptedLlm(ANSWER);
    await extractMemories('x'.repeat(30_000), { llm, minNumCtx: 8192 });
    const { system = '', prompt = '' } = llm.requests[0] ?? {};
    const expected = Math.ceil((Math.ceil((system.length + prompt.length) / 3) + 1024) / 1024) * 1024;
    expect(llm.requests[0]?.numCtx).toBe(expected);
    expect(expected).toBeGreaterThan(8192);
    expect(expected % 1024).toBe(0);
  });

  it('retries once without the schema when the first call fails with LLM_BAD_OUTPUT', async () => {
    const llm = scriptedLlm(new RecallError('LLM_BAD_OUTPUT', 'invalid format'), ANSWER);
    const memories = await extractMemories(TRANSCRIPT, { llm, minNumCtx: 8192 });
    expect(memories).toHaveLength(2);
    expect(llm.requests).toHaveLength(2);
    expect(llm.requests[0]?.schema).toBeDefined();
    expect(llm.requests[1]?.schema).toBeUndefined();
    expect(llm.requests[1]?.prompt).toBe(llm.requests[0]?.prompt);
  });

  it('retries once without the schema when the first answer cannot be parsed', async () => {
    const llm = scriptedLlm('Sorry, I cannot help with that.', ANSWER);
    const memories = await extractMemories(TRANSCRIPT, { llm, minNumCtx: 8192 });
    expect(memories.map((m) => m.type)).toEqual(['golden_rule', 'session']);
    expect(llm.requests[1]?.schema).toBeUndefined();
  });

  it('throws LLM_BAD_OUTPUT when the retry cannot be parsed either', async () => {
    const llm = scriptedLlm('not json', 'still not json');
    const err = await rejection(extractMemories(TRANSCRIPT, { llm, minNumCtx: 8192 }));
    expect(isRecallError(err, 'LLM_BAD_OUTPUT')).toBe(true);
    expect(llm.requests).toHaveLength(2);
  });

  it('does not retry when the model is unavailable', async () => {
    const llm = scriptedLlm(new RecallError('LLM_UNAVAILABLE', 'down'), ANSWER);
    const err = await rejection(extractMemories(TRANSCRIPT, { llm, minNumCtx: 8192 }));
    expect(isRecallError(err, 'LLM_UNAVAILABLE')).toBe(true);
    expect(llm.requests).toHaveLength(1);
  });

  it('does not retry when the model is missing', async () => {
    const llm = scriptedLlm(new RecallError('LLM_MODEL_MISSING', 'ollama pull x'), ANSWER);
    const err = await rejection(extractMemories(TRANSCRIPT, { llm, minNumCtx: 8192 }));
    expect(isRecallError(err, 'LLM_MODEL_MISSING')).toBe(true);
    expect(llm.requests).toHaveLength(1);
  });

  it('returns one low-importance session memory naming the first user request when the model finds nothing', async () => {
    const llm = scriptedLlm('{"memories": []}');
    const memories = await extractMemories(TRANSCRIPT, { llm, minNumCtx: 8192 });
    expect(memories).toEqual([
      {
        content: 'Session with no durable memories: Set up the API. You MUST use pnpm, not npm.',
        type: 'session',
        importance: 0.3,
      },
    ]);
  });

  it('returns the session memory when every item the model gave was invalid', async () => {
    const llm = scriptedLlm('{"memories": [{"content": "short", "type": "pattern"}]}');
    const memories = await extractMemories(TRANSCRIPT, { llm, minNumCtx: 8192 });
    expect(memories.map((m) => m.type)).toEqual(['session']);
  });
});

describe('estimateNumCtx', () => {
  it('is minNumCtx for a short prompt', () => {
    expect(estimateNumCtx(3_000, 8192)).toBe(8192);
  });

  it('is prompt chars / 3 + 1024 rounded up to 1024 for a long prompt', () => {
    // 30,000 / 3 + 1024 = 11,024 -> 11,264
    expect(estimateNumCtx(30_000, 8192)).toBe(11_264);
  });
});

describe('firstUserRequest', () => {
  it('reads a "User:" line', () => {
    expect(firstUserRequest('System: hi\nUser: Add a login page\nAssistant: ok')).toBe('Add a login page');
  });

  it('reads the whole first paragraph of a multi-line user turn as rendered by the transcript stage', () => {
    const rendered = 'User: Add a login page\nwith email and password\n\nand tests.\n\nAssistant: Let me look.\n  [tool Bash: ls]';
    expect(firstUserRequest(rendered)).toBe('Add a login page with email and password');
  });

  it('reads the paragraph under a "## User" heading', () => {
    expect(firstUserRequest('## User\n\nFix the flaky\ntest in CI\n\n## Assistant\nDone')).toBe('Fix the flaky test in CI');
  });

  it('reads "[user]" and "**Human:**" markers', () => {
    expect(firstUserRequest('[user] Rename the package')).toBe('Rename the package');
    expect(firstUserRequest('**Human:** Bump the version')).toBe('Bump the version');
  });

  it('does not mistake a word like "user-facing" for a speaker', () => {
    expect(firstUserRequest('user-facing copy was reviewed\nUser: Ship it')).toBe('Ship it');
  });

  it('falls back to the first non-empty line without any marker', () => {
    expect(firstUserRequest('\n\n  Refactor the parser  \nmore')).toBe('Refactor the parser');
  });

  it('cuts to 160 characters ending in an ellipsis', () => {
    const request = firstUserRequest(`User: ${'word '.repeat(100)}`);
    expect(request).toHaveLength(160);
    expect(request.endsWith('…')).toBe(true);
  });
});

describe('emptySessionMemory', () => {
  it('says "Session with no durable memories." for an empty transcript', () => {
    expect(emptySessionMemory('').content).toBe('Session with no durable memories.');
  });
});
