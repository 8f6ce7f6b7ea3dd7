import { describe, expect, it } from 'vitest';
import { isRecallError } from '../../../src/core/errors.js';
import { parseMemoriesAnswer } from '../../../src/extract/parse-answer.js';

const PNPM = { content: 'You MUST use pnpm, not npm.', type: 'golden_rule' };
const PG = { content: 'Use PostgreSQL 16 for the primary database.', type: 'decision' };

function contents(text: string): string[] {
  return parseMemoriesAnswer(text).memories.map((m) => m.content);
}

function expectBadOutput(text: string): void {
  let caught: unknown;
  try {
    parseMemoriesAnswer(text);
  } catch (err) {
    caught = err;
  }
  expect(isRecallError(caught, 'LLM_BAD_OUTPUT')).toBe(true);
}

describe('parseMemoriesAnswer', () => {
  it('reads a {"memories": [...]} object', () => {
    const result = parseMemoriesAnswer(JSON.stringify({ memories: [PNPM, PG] }));
    expect(result.memories).toEqual([
      { content: PNPM.content, type: 'golden_rule', importance: 1.0 },
      { content: PG.content, type: 'decision', importance: 0.8 },
    ]);
    expect(result.dropped).toBe(0);
  });

  it('reads a bare array of memories', () => {
    expect(contents(JSON.stringify([PNPM, PG]))).toEqual([PNPM.content, PG.content]);
  });

  it('reads JSON inside a ```json code fence with prose around it', () => {
    const text = `Here are the memories:\n\n\`\`\`json\n${JSON.stringify({ memories: [PNPM] }, null, 2)}\n\`\`\`\nHope this helps!`;
    expect(contents(text)).toEqual([PNPM.content]);
  });

  it('reads JSON inside a fence without a language tag', () => {
    expect(contents(`\`\`\`\n${JSON.stringify([PG])}\n\`\`\``)).toEqual([PG.content]);
  });

  it('finds the JSON object after chatter and before trailing garbage', () => {
    const text = `Sure! {"memories":[${JSON.stringify(PNPM)}]} <|eot_id|> trailing words`;
    expect(contents(text)).toEqual([PNPM.content]);
  });

  it('skips a bracketed footnote in the chatter that is not a memory list', () => {
    const text = `As noted [1], here you go: ${JSON.stringify({ memories: [PG] })}`;
    expect(contents(text)).toEqual([PG.content]);
  });

  it('ignores a <think> block that precedes the answer', () => {
    const text = `<think>Maybe {"memories": []} is right? No.</think>\n${JSON.stringify({ memories: [PNPM] })}`;
    expect(contents(text)).toEqual([PNPM.content]);
  });

  it('accepts trailing commas', () => {
    const text = `{"memories":[{"content":"${PNPM.content}","type":"golden_rule",},]}`;
    expect(contents(text)).toEqual([PNPM.content]);
  });

  it('keeps braces and brackets inside strings intact', () => {
    const content = 'Wrap config objects as { "strict": true } in tsconfig [always].';
    expect(contents(JSON.stringify({ memories: [{ content, type: 'pattern' }] }))).toEqual([content]);
  });

  it('salvages the complete items of an answer cut off mid-way', () => {
    const text = `{"memories":[${JSON.stringify(PNPM)},${JSON.stringify(PG)},{"content":"Run the tes`;
    expect(contents(text)).toEqual([PNPM.content, PG.content]);
  });

  it('returns no memories and drops nothing for an empty list', () => {
    expect(parseMemoriesAnswer('{"memories": []}')).toEqual({ memories: [], dropped: 0 });
  });

  it('matches types case-insensitively and with spaces or hyphens', () => {
    const text = JSON.stringify([
      { content: PNPM.content, type: 'Golden Rule' },
      { content: PG.content, type: 'DECISION' },
      { content: 'Keep commits small and focused on one change.', type: 'preference ' },
    ]);
    expect(parseMemoriesAnswer(text).memories.map((m) => m.type)).toEqual(['golden_rule', 'decision', 'preference']);
  });

  it('maps the synonyms rule and summary to golden_rule and session', () => {
    const text = JSON.stringify([
      { content: PNPM.content, type: 'rule' },
      { content: 'Session: added the login form and its tests.', type: 'summary' },
    ]);
    expect(parseMemoriesAnswer(text).memories.map((m) => [m.type, m.importance])).toEqual([
      ['golden_rule', 1.0],
      ['session', 0.3],
    ]);
  });

  it('drops items with an unknown type, a missing field, a non-string content or a non-object shape, and counts them', () => {
    const text = JSON.stringify({
      memories: [PNPM, { content: 'Use tabs for indentation in Go files.', type: 'opinion' }, { type: 'pattern' }, { content: 42, type: 'pattern' }, 'Use pnpm'],
    });
    const result = parseMemoriesAnswer(text);
    expect(result.memories.map((m) => m.content)).toEqual([PNPM.content]);
    expect(result.dropped).toBe(4);
  });

  it('drops contents shorter than 10 characters after trimming', () => {
    const text = JSON.stringify([{ content: '   use pnpm  ', type: 'preference' }, PG]);
    const result = parseMemoriesAnswer(text);
    expect(result.memories.map((m) => m.content)).toEqual([PG.content]);
    expect(result.dropped).toBe(1);
  });

  it('trims content and collapses inner whitespace to single spaces', () => {
    const text = JSON.stringify([{ content: '  You MUST run\n  the linter\tbefore committing.  ', type: 'golden_rule' }]);
    expect(contents(text)).toEqual(['You MUST run the linter before committing.']);
  });

  it('throws LLM_BAD_OUTPUT for prose without JSON', () => {
    expectBadOutput('I could not find any durable memories in this session.');
  });

  it('throws LLM_BAD_OUTPUT for JSON that holds no memory list', () => {
    expectBadOutput('{"result": "ok", "count": 2}');
  });

  it('throws LLM_BAD_OUTPUT for an empty answer', () => {
    expectBadOutput('   ');
  });

  it('throws LLM_BAD_OUTPUT for single-quoted pseudo-JSON', () => {
    expectBadOutput("{'memories': [{'content': 'You MUST use pnpm.', 'type': 'golden_rule'}]}");
  });
});
