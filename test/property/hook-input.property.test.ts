import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parsePostToolUsePayload } from '../../src/endless/post-tool-use-input.js';
import { parseStdinObject } from '../../src/core/read-json-object.js';
import { parseHookInput } from '../../src/hook/hook-input.js';

const KEYS = [
  'session_id', 'sessionId', 'transcript_path', 'transcriptPath', 'cwd', 'hook_event_name', 'hookEventName', 'reason', 'source',
  'tool_name', 'toolName', 'tool_use_id', 'toolUseId', 'tool_input', 'toolInput', 'tool_response', 'toolResponse',
  '__proto__', 'constructor', 'toString', 'hasOwnProperty',
] as const;

/** A value of any JSON type, with blank and non-blank strings over-represented. */
const fieldValue = fc.oneof(fc.constantFrom('', '  ', '\n', 'x', '/tmp/t.jsonl'), fc.string(), fc.jsonValue({ maxDepth: 2 }));

/** A hook payload object: known fields (either spelling) with values of any type, plus noise. */
const payloadObject = fc
  .tuple(fc.dictionary(fc.constantFrom(...KEYS), fieldValue, { maxKeys: 12 }), fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 }))
  .map(([known, extra]) => ({ ...extra, ...known }));

/** What arrives on stdin: JSON text of an object, of another value, cut short, padded, or garbage. */
const stdinText = fc.oneof(
  { weight: 4, arbitrary: payloadObject.map((o) => JSON.stringify(o)) },
  { weight: 1, arbitrary: payloadObject.map((o) => JSON.stringify(o, null, 2)) },
  { weight: 1, arbitrary: fc.tuple(payloadObject, fc.nat()).map(([o, n]) => { const s = JSON.stringify(o); return s.slice(0, n % (s.length + 1)); }) },
  { weight: 1, arbitrary: fc.json() },
  { weight: 1, arbitrary: fc.string() },
  { weight: 1, arbitrary: fc.string({ unit: 'binary' }) },
  { weight: 1, arbitrary: fc.constantFrom('', ' \n', 'null', '[]', '"x"', '{}', '\uFEFF{}', '{"session_id": "a"}\n{"x": 1}') },
);

/**
 * A PostToolUse payload that carries every field the parser needs (in either spelling), over the
 * noise of `payloadObject`: so the property below is checked on accepted payloads in every run,
 * not only on the few that random keys happen to complete.
 */
const nonBlank = fc.string({ minLength: 1 }).filter((s) => s.trim() !== '');
const completePostToolUse = fc
  .tuple(payloadObject, fc.boolean(), nonBlank, nonBlank, nonBlank, fc.jsonValue({ maxDepth: 2 }).filter((v) => v !== null))
  .map(([noise, camel, sessionId, toolUseId, toolName, response]) =>
    JSON.stringify({
      ...noise,
      ...(camel ? { sessionId, toolUseId, toolName, toolResponse: response } : { session_id: sessionId, tool_use_id: toolUseId, tool_name: toolName, tool_response: response }),
    }),
  );

const isStringOrNull = (value: unknown): boolean => value === null || typeof value === 'string';

/** The first of `keys` holding a non-blank string, as the parsers promise to pick. */
function firstNonBlank(record: Record<string, unknown>, ...keys: string[]): string | null {
  for (const key of keys) {
    const value = Object.prototype.hasOwnProperty.call(record, key) ? record[key] : undefined;
    if (typeof value === 'string' && value.trim() !== '') return value;
  }
  return null;
}

describe('hook stdin parsers under fuzzing', () => {
  it('parseStdinObject never throws and answers with an object record or a problem', () => {
    fc.assert(
      fc.property(stdinText, (text) => {
        const result = parseStdinObject(text);
        if (result.ok) {
          expect(typeof result.record).toBe('object');
          expect(result.record).not.toBeNull();
          expect(Array.isArray(result.record)).toBe(false);
        } else {
          expect(typeof result.problem).toBe('string');
          expect(result.problem).not.toBe('');
        }
      }),
      { numRuns: 1500 },
    );
  });

  it('parseHookInput never throws and its ok results carry only strings or null', () => {
    fc.assert(
      fc.property(stdinText, (text) => {
        const result = parseHookInput(text);
        if (!result.ok) {
          expect(typeof result.problem).toBe('string');
          return;
        }
        const fields = Object.values(result.input);
        expect(fields).toHaveLength(6);
        for (const value of fields) expect(isStringOrNull(value)).toBe(true);
        for (const value of fields) if (value !== null) expect(value.trim()).not.toBe('');
      }),
      { numRuns: 1500 },
    );
  });

  it('parseHookInput picks the snake_case field first, then the camelCase one, skipping blanks and non-strings', () => {
    fc.assert(
      fc.property(payloadObject, (record) => {
        const result = parseHookInput(JSON.stringify(record));
        expect(result.ok).toBe(true);
        if (!result.ok) return;
        const parsed = JSON.parse(JSON.stringify(record)) as Record<string, unknown>;
        expect(result.input).toEqual({
          sessionId: firstNonBlank(parsed, 'session_id', 'sessionId'),
          transcriptPath: firstNonBlank(parsed, 'transcript_path', 'transcriptPath'),
          cwd: firstNonBlank(parsed, 'cwd'),
          event: firstNonBlank(parsed, 'hook_event_name', 'hookEventName'),
          reason: firstNonBlank(parsed, 'reason'),
          source: firstNonBlank(parsed, 'source'),
        });
      }),
      { numRuns: 1000 },
    );
  });

  it('parsePostToolUsePayload never throws and its ok results carry non-blank strings for ids and names', () => {
    let accepted = 0;
    fc.assert(
      fc.property(fc.oneof(stdinText, completePostToolUse), (text) => {
        const result = parsePostToolUsePayload(text);
        if (!result.ok) {
          expect(typeof result.problem).toBe('string');
          return;
        }
        accepted += 1;
        const { sessionId, toolUseId, toolName, toolResponse } = result.payload;
        for (const value of [sessionId, toolUseId, toolName]) {
          expect(typeof value).toBe('string');
          expect(value.trim()).not.toBe('');
        }
        expect(toolResponse === null || toolResponse === undefined).toBe(false);
        // The payload is plain JSON data: nothing from Object.prototype leaks in.
        expect(typeof result.payload.toolInput).not.toBe('function');
        expect(typeof toolResponse).not.toBe('function');
      }),
      { numRuns: 1500 },
    );
    // Half the inputs are complete payloads; most of those must be accepted for the property to mean anything.
    expect(accepted).toBeGreaterThan(300);
  });
});
