import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cutText, detach, formatCount } from '../../../src/transcript/cut-text.js';

describe('cutText', () => {
  it('returns a text that fits as it is', () => {
    expect(cutText('short', 10)).toBe('short');
  });

  it('keeps the head and the tail around a marker of what was left out', () => {
    const text = Array.from({ length: 50 }, (_, i) => `word${i}`).join(' ');
    const cut = cutText(text, 120);
    expect(cut.length).toBeLessThanOrEqual(120);
    expect(cut).toMatch(/^word0 word1 .* \[…[\d,]+ chars…\] .*word49$/);
  });

  it('keeps only the head, ending in an ellipsis, when asked', () => {
    expect(cutText('alpha beta gamma delta epsilon', 17, 1)).toBe('alpha beta gamma…');
  });

  it('never splits a redaction marker, wherever the cut falls', () => {
    const marker = '[REDACTED:anthropic-key]';
    for (let at = 0; at < 200; at += 1) {
      const text = `${'a '.repeat(at)}${marker}${' b'.repeat(200 - at)}`;
      for (const max of [60, 97, 150]) {
        const cut = cutText(text, max);
        expect(cut.length).toBeLessThanOrEqual(max);
        const pieces = cut.match(/\[REDACT[^\]]*\]?|REDACTED:[a-z-]*\]?|[a-z-]*-key\]/g) ?? [];
        for (const piece of pieces) expect(piece).toBe(marker);
      }
    }
  });

  it('stays within its budget and never splits a surrogate pair, for any text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 400 }), fc.integer({ min: 0, max: 300 }), fc.double({ min: 0, max: 1, noNaN: true }), (text, max, share) => {
        const cut = cutText(text, max, share);
        expect(cut.length).toBeLessThanOrEqual(Math.max(max, 0));
        expect(cut).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/);
      }),
      { numRuns: 500 },
    );
  });
});

describe('formatCount', () => {
  const byExpression = (n: number): string => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');

  it('groups digits in threes from the right', () => {
    expect([0, 7, 999, 1000, 12345, 1234567].map(formatCount)).toEqual(['0', '7', '999', '1,000', '12,345', '1,234,567']);
  });

  it('writes every number as the comma-inserting expression does', () => {
    fc.assert(
      fc.property(fc.oneof(fc.nat(), fc.integer(), fc.double(), fc.constant(1e21), fc.constant(2 ** 60)), (n) => {
        expect(formatCount(n)).toBe(byExpression(n));
      }),
    );
  });
});

describe('detach', () => {
  it('gives the same text, lone surrogates and all', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        expect(detach(text)).toBe(text);
      }),
    );
  });
});
