import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseTranscriptLine, parseTranscriptRecord } from '../../src/transcript/parse-transcript-line.js';
import type { SessionEvent } from '../../src/transcript/session-events.js';
import { INJECTED, messageText, transcriptRecord } from './transcript-arbitraries.js';

const KINDS = new Set(['user', 'interrupt', 'assistant', 'tool-call', 'tool-result', 'compaction', 'sidechain']);

/** Every text an event carries, pasted excerpts included. */
function textsOf(event: SessionEvent): string[] {
  switch (event.kind) {
    case 'interrupt':
      return [];
    case 'user':
      return [event.text, ...event.pasted.map((p) => p.excerpt)];
    case 'tool-call':
      return [event.summary, event.command ?? '', event.target ?? ''];
    case 'tool-result':
      return [event.output.text];
    default:
      return [event.text];
  }
}

function expectWellFormedTurns(events: SessionEvent[]): void {
  expect(Array.isArray(events)).toBe(true);
  for (const event of events) {
    expect(KINDS.has(event.kind)).toBe(true);
    if (event.kind === 'interrupt') continue;
    const [text] = textsOf(event);
    expect(typeof text).toBe('string');
    if (event.kind !== 'user' || event.pasted.length === 0) expect(text).not.toBe('');
    if (event.kind === 'assistant' && event.messageId !== undefined) expect(typeof event.messageId).toBe('string');
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
        for (const turn of turns) for (const text of textsOf(turn)) expect(text).not.toContain(INJECTED);
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
        const first = turns[0];
        expect(first?.kind === 'user' && first.text.startsWith(words)).toBe(true);
        for (const turn of turns) for (const text of textsOf(turn)) expect(text).not.toContain(INJECTED);
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
    expect(turns[0]?.kind === 'tool-call' && turns[0].summary).toMatch(/^\[tool Bash: echo +done\]$/);
    expect(turns[0]?.kind === 'tool-call' && turns[0].command).toMatch(/^echo +done$/);
  });
});
