import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isRecallError } from '../../src/core/errors.js';
import { IMPORTANCE_BY_TYPE, MEMORY_TYPES } from '../../src/core/memory.js';
import { MIN_CONTENT_CHARS, parseMemoriesAnswer, type ParsedAnswer } from '../../src/extract/parse-answer.js';
import { redactSecrets } from '../../src/redact/redact-secrets.js';

const normalize = (content: string): string => content.replace(/\s+/g, ' ').trim();

/**
 * A memory the parser must keep as it is: a known type and enough text once whitespace is collapsed, and
 * nothing redaction would change (random text can look like `pw: ...`; the answer's redaction has its own tests).
 */
const validMemory = fc.record({
  content: fc.oneof(fc.string({ minLength: 10, maxLength: 80 }), fc.string({ unit: 'grapheme', minLength: 10, maxLength: 40 }))
    .filter((c) => normalize(c).length >= MIN_CONTENT_CHARS && !/<think>/i.test(c) && !/<\/think>/i.test(c) && redactSecrets(c).text === c),
  type: fc.constantFrom(...MEMORY_TYPES),
});

/** Prose a small model puts around its JSON, markdown brackets included (`- [ ]`, `[1]`, `[docs](url)`, `{}`). */
const chatter = fc.oneof(
  fc.constantFrom('', 'Here are the memories:', 'Sure! ', 'Hope this helps.', '\n\n', 'Note: "quoted" words, and more.'),
  fc.constantFrom('- [ ] review the list', 'See [1].', 'Read [the docs](https://example.com).', 'I found {} and [] so far.', '- [x] done'),
  fc.string({ maxLength: 40 }).map((s) => s.replace(/[{}[\]`]/g, '')),
);

/** The JSON of a memory list as a model writes it: object or bare array, compact or pretty, maybe with trailing commas. */
const answerJson = fc
  .tuple(fc.array(validMemory, { minLength: 1, maxLength: 5 }), fc.boolean(), fc.constantFrom(0, 2), fc.boolean())
  .map(([memories, wrapped, indent, trailingCommas]) => {
    let json = JSON.stringify(wrapped ? { memories } : memories, null, indent);
    // In pretty JSON a newline before a closer is never inside a string.
    if (indent > 0 && trailingCommas) json = json.replace(/\n(\s*)([}\]])/g, ',\n$1$2');
    return { memories, json };
  });

/** The whole answer: chatter, maybe a <think> block, the JSON bare or in a code fence, chatter. */
const embeddedAnswer = fc
  .tuple(answerJson, chatter, chatter, fc.constantFrom(null, 'json', 'JSON', ''), fc.boolean())
  .map(([{ memories, json }, before, after, fence, think]) => {
    const body = fence === null ? json : `\`\`\`${fence}\n${json}\n\`\`\``;
    const thinking = think ? '<think>maybe [] or {"memories": []} first</think>\n' : '';
    return { memories, text: `${thinking}${before}${before === '' ? '' : '\n'}${body}${after === '' ? '' : '\n'}${after}` };
  });

const JSONISH_TOKENS = ['{', '}', '[', ']', '"', ',', ':', '```json\n', '```', '"memories":', '"content":', '"type":', '"You MUST run the linter first."', '"decision"', '"Golden Rule"', '"rules"', '"__proto__"', '"constructor"', 'null', '42', '<think>', '</think>', '\\', ' ', '\n'];

/** Answers that are almost JSON: token soup, cut-off lists, odd types, arbitrary text. */
const messyAnswer = fc.oneof(
  fc.array(fc.constantFrom(...JSONISH_TOKENS), { maxLength: 40 }).map((tokens) => tokens.join('')),
  fc.tuple(answerJson, fc.nat()).map(([{ json }, n]) => json.slice(0, n % (json.length + 1))),
  fc.array(
    fc.record(
      { content: fc.oneof(fc.string({ maxLength: 30 }), fc.jsonValue({ maxDepth: 1 })), type: fc.oneof(fc.constantFrom(...MEMORY_TYPES, 'Golden Rule', 'golden-rule', ' DECISION ', 'summary', 'constructor', '__proto__', 'toString'), fc.jsonValue({ maxDepth: 1 })) },
      { requiredKeys: [] },
    ),
    { maxLength: 5 },
  ).map((items) => JSON.stringify({ memories: items })),
  fc.string({ maxLength: 200 }),
  fc.string({ unit: 'binary', maxLength: 100 }),
  fc.json({ maxDepth: 3 }),
);

function expectValidAnswer(result: ParsedAnswer): void {
  expect(result.dropped).toBeGreaterThanOrEqual(0);
  for (const memory of result.memories) {
    expect(typeof memory.content).toBe('string');
    expect(memory.content.length).toBeGreaterThanOrEqual(MIN_CONTENT_CHARS);
    expect(memory.content).toBe(normalize(memory.content));
    expect(MEMORY_TYPES).toContain(memory.type);
    expect(memory.importance).toBe(IMPORTANCE_BY_TYPE[memory.type]);
  }
}

describe('parseMemoriesAnswer under fuzzing', () => {
  it('throws nothing but RecallError LLM_BAD_OUTPUT, and every memory it returns has enough content and a known type', () => {
    fc.assert(
      fc.property(messyAnswer, (text) => {
        let result: ParsedAnswer;
        try {
          result = parseMemoriesAnswer(text);
        } catch (err) {
          expect(isRecallError(err, 'LLM_BAD_OUTPUT')).toBe(true);
          return;
        }
        expectValidAnswer(result);
      }),
      { numRuns: 2000 },
    );
  });

  it('recovers every memory of a valid list embedded in chatter, think blocks or a code fence', () => {
    fc.assert(
      fc.property(embeddedAnswer, ({ memories, text }) => {
        const result = parseMemoriesAnswer(text);
        expectValidAnswer(result);
        expect(result.memories.map((m) => ({ content: m.content, type: m.type }))).toEqual(memories.map((m) => ({ content: normalize(m.content), type: m.type })));
        expect(result.dropped).toBe(0);
      }),
      { numRuns: 1500 },
    );
  });

  it('reads the list after an empty [] in chatter (regression: a "- [ ]" checkbox before the JSON gave no memories)', () => {
    const json = JSON.stringify({ memories: [{ content: 'You MUST use pnpm, never npm.', type: 'golden_rule' }] });
    expect(parseMemoriesAnswer(`Checklist:\n- [ ] review\n${json}`).memories.map((m) => m.content)).toEqual(['You MUST use pnpm, never npm.']);
    expect(parseMemoriesAnswer('No memories this time: []').memories).toEqual([]);
  });
});
