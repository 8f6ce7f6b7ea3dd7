import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseTranscriptLine, parseTranscriptRecord, type Turn } from '../../src/transcript/parse-transcript-line.js';
import { INJECTED, messageText, transcriptRecord } from './transcript-arbitraries.js';

const ROLES = new Set(['user', 'assistant', 'tool']);

function expectWellFormedTurns(turns: Turn[]): void {
  expect(Array.isArray(turns)).toBe(true);
  for (const turn of turns) {
    expect(ROLES.has(turn.role)).toBe(true);
    expect(typeof turn.text).toBe('string');
    expect(turn.text).not.toBe('');
    if (turn.messageId !== undefined) expect(typeof turn.messageId).toBe('string');
  }
}

describe('parseTranscriptLine under fuzzing', () => {
  it('never throws on an arbitrary string and returns well-formed turns', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.json()), (line) => {
        expectWellFormedTurns(parseTranscriptLine(line));
      }),
      { numRuns: 1500 },
    );
  });

  it('never throws on Claude Code, Factory and simplified records, ignores a BOM and padding, and returns well-formed turns', () => {
    fc.assert(
      fc.property(transcriptRecord, fc.constantFrom('', '\uFEFF', '  '), fc.constantFrom('', '\r', '  '), (record, before, after) => {
        const line = `${before}${JSON.stringify(record)}${after}`;
        const turns = parseTranscriptLine(line);
        expectWellFormedTurns(turns);
        expect(parseTranscriptRecord(JSON.parse(JSON.stringify(record)))).toEqual(turns);
      }),
      { numRuns: 1500 },
    );
  });

  it('parseTranscriptRecord never throws on any value at all', () => {
    fc.assert(
      fc.property(fc.anything({ maxDepth: 3, withNullPrototype: true, withBoxedValues: true, withMap: true, withSet: true }), (value) => {
        expectWellFormedTurns(parseTranscriptRecord(value));
      }),
      { numRuns: 1000 },
    );
  });

  it('lets no system-reminder or recall-context content through in any turn, tool calls included', () => {
    let exercised = 0;
    fc.assert(
      fc.property(transcriptRecord, (record) => {
        const line = JSON.stringify(record);
        const turns = parseTranscriptLine(line);
        if (line.includes(INJECTED) && turns.length > 0) exercised += 1;
        for (const turn of turns) expect(turn.text).not.toContain(INJECTED);
      }),
      { numRuns: 1500 },
    );
    // The generators must actually put injected context into lines that yield turns.
    expect(exercised).toBeGreaterThan(30);
  });

  it('keeps the plain text around injected context in a user message', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[A-Za-z][A-Za-z ]{0,20}[A-Za-z]$/), messageText, (words, noise) => {
        const line = JSON.stringify({ type: 'user', message: { role: 'user', content: `${words}\n<system-reminder>${noise}</system-reminder>` } });
        const turns = parseTranscriptLine(line);
        expect(turns[0]?.text.startsWith(words)).toBe(true);
        for (const turn of turns) expect(turn.text).not.toContain(INJECTED);
      }),
      { numRuns: 500 },
    );
  });

  it('drops injected context quoted in a tool call input (regression: it survived in the [tool ...] summary)', () => {
    const line = JSON.stringify({
      type: 'assistant',
      message: { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'Bash', input: { command: `echo <recall-context>${INJECTED}</recall-context> done` } }] },
    });
    const turns = parseTranscriptLine(line);
    expect(turns).toHaveLength(1);
    expect(turns[0]?.text).toMatch(/^\[tool Bash: echo +done\]$/);
  });
});
