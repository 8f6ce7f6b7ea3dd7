import { describe, expect, it } from 'vitest';
import { foldRepeatedLines, reduceOutput } from '../../../src/endless/reduce-output.js';
import { isProgressLine, stripTerminalNoise } from '../../../src/endless/strip-noise.js';

const numbered = (n: number, prefix = 'line') => Array.from({ length: n }, (_, i) => `${prefix} ${i + 1} of the log with some words`).join('\n');

describe('stripTerminalNoise', () => {
  it('removes colour, cursor and title escapes', () => {
    expect(stripTerminalNoise('\u001b[32mPASS\u001b[0m a.test.ts\n\u001b]0;title\u0007\u001b[2Kdone')).toBe('PASS a.test.ts\ndone');
  });

  it('keeps only what a carriage-return redraw leaves on screen', () => {
    expect(stripTerminalNoise('Downloading 10%\rDownloading 55%\rDownloaded 3 files\nnext')).toBe('Downloaded 3 files\nnext');
  });

  it('applies backspace overstrikes', () => {
    expect(stripTerminalNoise('abc\b\bXY')).toBe('aXY');
  });

  it('drops spinner frames and progress bars but keeps separators and test progress lines', () => {
    expect(isProgressLine('⠋ Installing')).toBe(false);
    expect(isProgressLine('⠋⠙⠹')).toBe(true);
    expect(isProgressLine(' 45%')).toBe(true);
    expect(isProgressLine('[=======>      ] 45% 1.2MB/s')).toBe(true);
    expect(isProgressLine('████████░░░░ 66/100')).toBe(true);
    expect(isProgressLine('-----------------------------')).toBe(false);
    expect(isProgressLine('tests/test_api.py ........  [ 45%]')).toBe(false);
    expect(stripTerminalNoise('start\n⠋⠙⠹\n 45%\n[=======>      ] 45%\nend')).toBe('start\nend');
  });

  it('collapses runs of blank lines and trims blank edges', () => {
    expect(stripTerminalNoise('\n\na\n\n\n\nb\n\n')).toBe('a\n\nb');
  });
});

describe('foldRepeatedLines', () => {
  it('marks identical consecutive lines with a count', () => {
    const folded = foldRepeatedLines(['a', 'same', 'same', 'same', 'b'].map((text, i) => ({ n: i + 1, text })));
    expect(folded.map((e) => e.text)).toEqual(['a', 'same  [×3]', 'b']);
  });

  it('keeps the first and last of a run of lines that differ only in numbers', () => {
    const lines = Array.from({ length: 6 }, (_, i) => ({ n: i + 1, text: `ok ${i + 1} - test took ${i * 3} ms` }));
    expect(foldRepeatedLines(lines).map((e) => e.text)).toEqual(['ok 1 - test took 0 ms', '… [4 similar lines, 2–5] …', 'ok 6 - test took 15 ms']);
  });

  it('leaves three similar lines alone', () => {
    const lines = Array.from({ length: 3 }, (_, i) => ({ n: i + 1, text: `item ${i}` }));
    expect(foldRepeatedLines(lines)).toHaveLength(3);
  });
});

describe('reduceOutput', () => {
  it('returns short output whole, noise stripped', () => {
    const result = reduceOutput('\u001b[1mhello\u001b[0m\nworld', { maxChars: 1000, keep: 'errors' });
    expect(result.text).toBe('hello\nworld');
  });

  it('keeps the head and the tail of a long output within its budget', () => {
    const text = Array.from({ length: 2000 }, (_, i) => `row ${String.fromCharCode(97 + (i % 26))}${i % 7 ? 'x' : 'y'} ${'word '.repeat(i % 5)}`).join('\n');
    const result = reduceOutput(text, { maxChars: 2000, keep: 'errors' });
    expect(result.text.length).toBeLessThan(2400);
    expect(result.text.startsWith('row ay')).toBe(true);
    expect(result.text.endsWith(text.split('\n').at(-1)!.trimEnd())).toBe(true);
    expect(result.text).toMatch(/… \[lines \d+–\d+ omitted\] …/);
  });

  it('keeps error and warning lines from the middle with their line numbers', () => {
    const lines = Array.from({ length: 1000 }, (_, i) => `compiling module_${'abcdefghij'[i % 10]}${'klmnop'[i % 6]} fine`);
    lines[500] = 'src/app.ts(12,5): error TS2322: Type string is not assignable to type number';
    lines[700] = 'warning: function svg_mini/1 is unused';
    const result = reduceOutput(lines.join('\n'), { maxChars: 2000, keep: 'errors' });
    expect(result.text).toContain('L501: src/app.ts(12,5): error TS2322: Type string is not assignable to type number');
    expect(result.text).toContain('L701: warning: function svg_mini/1 is unused');
    expect(result.text).toContain('2 error/warning line(s) from them below');
  });

  it('keeps the outline of a long source file for Read results', () => {
    const lines = Array.from({ length: 800 }, (_, i) => `  const v${i % 9} = compute${'abcdefg'[i % 7]}(input);`);
    lines[400] = 'export async function handleRequest(req: Request): Promise<Response> {';
    lines[600] = 'class SessionStore {';
    const result = reduceOutput(lines.join('\n'), { maxChars: 2000, keep: 'outline' });
    expect(result.text).toContain('L401: export async function handleRequest(req: Request): Promise<Response> {');
    expect(result.text).toContain('L601: class SessionStore {');
  });

  it('cuts very long lines', () => {
    const result = reduceOutput(`short\n${'z'.repeat(5000)}`, { maxChars: 10_000, keep: 'errors', maxLineChars: 100 });
    expect(result.text).toBe(`short\n${'z'.repeat(100)}… [+4900 chars]`);
  });

  it('folds a repetitive log far below its size', () => {
    const result = reduceOutput(numbered(3000), { maxChars: 2400, keep: 'errors' });
    expect(result.text.length).toBeLessThan(200);
  });
});

describe('reduceOutput on numbered Read results', () => {
  it('finds the outline behind a cat -n prefix and keeps that prefix as the line number', () => {
    const lines = Array.from({ length: 600 }, (_, i) => `${String(i + 1).padStart(6)}→    x${i % 7} = step${'abcdefg'[i % 7]}(x)`);
    lines[299] = '   300→  defp type_color(:assistant), do: "color: #e0e0e0;"';
    const result = reduceOutput(lines.join('\n'), { maxChars: 2000, keep: 'outline' });
    expect(result.text).toContain('\n   300→  defp type_color(:assistant), do: "color: #e0e0e0;"\n');
    expect(result.text).not.toContain('L300:');
  });
});
