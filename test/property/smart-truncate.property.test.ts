import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createTruncatingCollector, omissionMarker, smartTruncate } from '../../src/transcript/smart-truncate.js';

/** True when no UTF-16 surrogate is left without its partner. */
function isWellFormed(text: string): boolean {
  return !/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(text);
}

/** Text with lines, words, emoji and long runs, the material cut points are chosen from. */
const text = fc.oneof(
  fc.string({ maxLength: 400 }),
  fc.string({ unit: 'grapheme', maxLength: 200 }),
  fc.array(fc.oneof(fc.constantFrom('\n', ' ', '\t', '\r\n', '😀', 'x'.repeat(50)), fc.string({ maxLength: 30 })), { maxLength: 60 }).map((parts) => parts.join('')),
);
const maxChars = fc.oneof(fc.integer({ min: 0, max: 80 }), fc.integer({ min: 0, max: 600 }));

/** Cuts `source` into consecutive chunks at the given (sorted, deduplicated) positions. */
function chunked(source: string, cuts: number[]): string[] {
  const points = [...new Set(cuts.map((c) => c % (source.length + 1)))].sort((a, b) => a - b);
  const chunks: string[] = [];
  let from = 0;
  for (const point of [...points, source.length]) {
    chunks.push(source.slice(from, point));
    from = point;
  }
  return chunks;
}

/** Whether `out` is a prefix of `input`, or a prefix + the marker for exactly what is missing + a suffix. */
function isHeadMarkerTail(input: string, out: string): boolean {
  if (input.startsWith(out)) return true;
  for (const m of out.matchAll(/\n\n\[\.\.\. [\d,]+ characters omitted \.\.\.\]\n\n/g)) {
    const head = out.slice(0, m.index);
    const tail = out.slice(m.index + m[0].length);
    const omitted = input.length - head.length - tail.length;
    if (omitted > 0 && input.startsWith(head) && input.endsWith(tail) && m[0] === omissionMarker(omitted)) return true;
  }
  return false;
}

describe('smartTruncate under fuzzing', () => {
  it('never returns more than maxChars characters', () => {
    fc.assert(
      fc.property(text, maxChars, (input, max) => {
        expect(smartTruncate(input, max).length).toBeLessThanOrEqual(max);
      }),
      { numRuns: 2000 },
    );
  });

  it('returns the input itself when it fits', () => {
    fc.assert(
      fc.property(text, fc.nat(100), (input, extra) => {
        expect(smartTruncate(input, input.length + extra)).toBe(input);
      }),
      { numRuns: 1000 },
    );
  });

  it('keeps a head and a tail of the input around a marker that counts what was left out', () => {
    fc.assert(
      fc.property(text, maxChars, (input, max) => {
        expect(isHeadMarkerTail(input, smartTruncate(input, max))).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it('never splits a surrogate pair', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 300 }), maxChars, (input, max) => {
        expect(isWellFormed(smartTruncate(input, max))).toBe(true);
      }),
      { numRuns: 1500 },
    );
  });

  it('gives the same text from the streaming collector, however the input is chunked', () => {
    fc.assert(
      fc.property(text, maxChars, fc.array(fc.nat(), { maxLength: 20 }), (input, max, cuts) => {
        const collector = createTruncatingCollector(max);
        for (const chunk of chunked(input, cuts)) collector.push(chunk);
        const result = collector.result();
        expect(result.text).toBe(smartTruncate(input, max));
        expect(result.totalChars).toBe(input.length);
        expect(result.omittedChars === 0).toBe(input.length <= max);
      }),
      { numRuns: 2000 },
    );
  });
});
