import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cleanTranscriptText, normaliseWhitespace } from '../../src/transcript/clean-transcript-text.js';

/** The plain definition: every line trimmed at its end, blank runs collapsed, the whole trimmed. */
function reference(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((line) => line.trimEnd())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** Text made of words and every kind of whitespace, Unicode spaces and line ends included. */
const spacey = fc
  .array(
    fc.oneof(
      fc.constantFrom(' ', '\t', '\n', '\r', '\r\n', '\v', '\f', '\u00a0', '\u2028', '\u2029', '\u3000', '\ufeff', '\u200b', '\u0085', '\u001b[31m', '<', 'x', 'word'),
      fc.string({ maxLength: 6 }),
    ),
    { maxLength: 40 },
  )
  .map((parts) => parts.join(''));

describe('normaliseWhitespace under fuzzing', () => {
  it('equals trimming every line, collapsing blank runs and trimming the whole', () => {
    fc.assert(
      fc.property(spacey, (text) => {
        expect(normaliseWhitespace(text)).toBe(reference(text));
      }),
      { numRuns: 5000 },
    );
  });

  it('leaves text without tags or escapes as normaliseWhitespace leaves it', () => {
    fc.assert(
      fc.property(spacey.filter((t) => !t.includes('<') && !t.includes('\u001b')), (text) => {
        expect(cleanTranscriptText(text)).toBe(/^\s*<task-notification>/.test(text) ? '' : reference(text));
      }),
      { numRuns: 2000 },
    );
  });
});
