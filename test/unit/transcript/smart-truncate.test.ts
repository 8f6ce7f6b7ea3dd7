import { describe, it, expect } from 'vitest';
import {
  DEFAULT_MAX_CHARS,
  createTruncatingCollector,
  formatCount,
  omissionMarker,
  smartTruncate,
} from '../../../src/transcript/smart-truncate.js';

/** Small deterministic PRNG (mulberry32), so randomized loops replay the same cases. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ALPHABET = ['a', 'b', 'c', ' ', ' ', '\n', 'é', '😀', '\t', 'Z', '.', '-'];

function randomText(random: () => number, length: number): string {
  let out = '';
  while (out.length < length) out += ALPHABET[Math.floor(random() * ALPHABET.length)];
  return out;
}

const MARKER_LINE = /\n\n\[\.\.\. ([\d,]+) characters omitted \.\.\.\]\n\n/;

function omittedCount(text: string): number | undefined {
  const m = MARKER_LINE.exec(text);
  return m?.[1] === undefined ? undefined : Number(m[1].replace(/,/g, ''));
}

function hasLoneSurrogate(text: string): boolean {
  return /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(text);
}

describe('smartTruncate', () => {
  it('returns text that fits unchanged', () => {
    expect(smartTruncate('short')).toBe('short');
    const exact = 'x'.repeat(DEFAULT_MAX_CHARS);
    expect(smartTruncate(exact)).toBe(exact);
  });

  it('keeps about 30% of the budget from the start and 70% from the end', () => {
    const text = Array.from({ length: 5000 }, (_, i) => `line ${i}`).join('\n');
    const out = smartTruncate(text, 1000);
    const [head = '', tail = ''] = out.split(MARKER_LINE).filter((_, i) => i !== 1);
    expect(text.startsWith(head)).toBe(true);
    expect(text.endsWith(tail)).toBe(true);
    expect(head.length).toBeGreaterThan(250);
    expect(head.length).toBeLessThanOrEqual(300);
    expect(tail.length).toBeGreaterThan(600);
    expect(tail.length).toBeLessThanOrEqual(700);
  });

  it('never returns more than maxChars, marker included', () => {
    const random = prng(1);
    for (let i = 0; i < 400; i += 1) {
      const maxChars = Math.floor(random() * 3000);
      const text = randomText(random, Math.floor(random() * 6000));
      expect(smartTruncate(text, maxChars).length).toBeLessThanOrEqual(maxChars);
    }
  });

  it('says exactly how many characters it left out', () => {
    const random = prng(2);
    for (let i = 0; i < 200; i += 1) {
      const text = randomText(random, 2000 + Math.floor(random() * 20_000));
      const out = smartTruncate(text, 1500);
      const shown = out.replace(MARKER_LINE, '');
      expect(omittedCount(out)).toBe(text.length - shown.length);
    }
  });

  it('formats the omitted count with thousands separators', () => {
    const out = smartTruncate('x'.repeat(25_000), 12_000);
    expect(out).toMatch(/\[\.\.\. 13,\d{3} characters omitted \.\.\.\]/);
    expect(formatCount(1234567)).toBe('1,234,567');
    expect(formatCount(999)).toBe('999');
    expect(omissionMarker(12345)).toBe('\n\n[... 12,345 characters omitted ...]\n\n');
  });

  it('cuts on line boundaries when one is near the cut points', () => {
    const text = Array.from({ length: 2000 }, (_, i) => `entry number ${i} done`).join('\n');
    const out = smartTruncate(text, 3000);
    const [head = '', , tail = ''] = out.split(MARKER_LINE);
    expect(head.endsWith(' done')).toBe(true);
    expect(tail.startsWith('entry number ')).toBe(true);
  });

  it('cuts on word boundaries when no line boundary is near', () => {
    const text = Array.from({ length: 4000 }, (_, i) => `word${i}`).join(' ');
    const [head = '', , tail = ''] = smartTruncate(text, 2000).split(MARKER_LINE);
    expect(text.split(' ')).toContain(head.split(' ').at(-1));
    expect(text.split(' ')).toContain(tail.split(' ')[0]);
  });

  it('cuts mid-word when no boundary is near', () => {
    const text = 'x'.repeat(10_000);
    const out = smartTruncate(text, 1000);
    expect(out.length).toBeGreaterThan(990);
    expect(out.length).toBeLessThanOrEqual(1000);
  });

  it('does not split surrogate pairs', () => {
    const random = prng(3);
    for (let i = 0; i < 100; i += 1) {
      const text = '😀'.repeat(2000 + Math.floor(random() * 500));
      expect(hasLoneSurrogate(smartTruncate(text, 500 + Math.floor(random() * 500)))).toBe(false);
    }
  });

  it('cuts the head without a marker when the budget is too small for one', () => {
    expect(smartTruncate('abcdefghijklmnopqrstuvwxyz', 10)).toBe('abcdefghij');
    expect(smartTruncate('abc', 0)).toBe('');
  });

  it('rejects a negative or fractional budget', () => {
    expect(() => smartTruncate('abc', -1)).toThrow(RangeError);
    expect(() => smartTruncate('abc', 1.5)).toThrow(RangeError);
    expect(() => createTruncatingCollector(Number.NaN)).toThrow(RangeError);
  });
});

describe('createTruncatingCollector', () => {
  function collect(chunks: readonly string[], maxChars: number): ReturnType<ReturnType<typeof createTruncatingCollector>['result']> {
    const collector = createTruncatingCollector(maxChars);
    for (const chunk of chunks) collector.push(chunk);
    return collector.result();
  }

  it('gives the same text as smartTruncate on the whole, for random chunkings', () => {
    const random = prng(4);
    for (let i = 0; i < 500; i += 1) {
      const maxChars = Math.floor(random() * 2000);
      const chunks: string[] = [];
      const count = Math.floor(random() * 40);
      for (let c = 0; c < count; c += 1) {
        // Mostly small chunks, now and then one larger than the whole budget.
        const size = random() < 0.1 ? Math.floor(random() * 5000) : Math.floor(random() * 200);
        chunks.push(randomText(random, size));
      }
      const whole = chunks.join('');
      const result = collect(chunks, maxChars);
      expect(result.text).toBe(smartTruncate(whole, maxChars));
      expect(result.totalChars).toBe(whole.length);
    }
  });

  it('gives the same text as smartTruncate on line-structured input', () => {
    const random = prng(5);
    for (let i = 0; i < 100; i += 1) {
      const lines = Array.from({ length: 50 + Math.floor(random() * 500) }, (_, n) => `User: message ${n} ${randomText(random, 30)}`);
      const chunks = lines.map((line, n) => (n === 0 ? line : `\n\n${line}`));
      expect(collect(chunks, 12_000).text).toBe(smartTruncate(chunks.join(''), 12_000));
    }
  });

  it('reports how much it left out', () => {
    const result = collect(['a'.repeat(600), 'b'.repeat(600)], 500);
    expect(result.totalChars).toBe(1200);
    expect(result.omittedChars).toBe(1200 - result.text.replace(MARKER_LINE, '').length);
    expect(collect(['fits'], 500)).toEqual({ text: 'fits', totalChars: 4, omittedChars: 0 });
  });

  it('returns empty text when nothing was pushed', () => {
    expect(collect([], 100)).toEqual({ text: '', totalChars: 0, omittedChars: 0 });
    expect(collect(['', ''], 100)).toEqual({ text: '', totalChars: 0, omittedChars: 0 });
  });

  it('keeps collecting after a result was taken', () => {
    const collector = createTruncatingCollector(50);
    collector.push('x'.repeat(40));
    expect(collector.result().text).toBe('x'.repeat(40));
    collector.push(' and more words here');
    expect(collector.result().text).toBe(smartTruncate(`${'x'.repeat(40)} and more words here`, 50));
  });

  it('handles a long stream of small chunks in bounded time', () => {
    const collector = createTruncatingCollector(12_000);
    const started = performance.now();
    for (let i = 0; i < 200_000; i += 1) collector.push(`chunk ${i}\n`);
    const result = collector.result();
    expect(performance.now() - started).toBeLessThan(2000);
    expect(result.text.length).toBeLessThanOrEqual(12_000);
    expect(result.text.endsWith('chunk 199999\n')).toBe(true);
    expect(result.text.startsWith('chunk 0\n')).toBe(true);
  });
});
