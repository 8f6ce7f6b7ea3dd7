import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { renderTable, wrapToWidth } from '../../../src/cli/output.js';
import { withTerminal, type Terminal } from '../../../src/cli/terminal.js';

function terminal(): Terminal {
  return { write: () => undefined, columns: undefined, isTTY: false, noColor: true, cwd: process.cwd() };
}

const render = (head: string[], rows: string[][], width: number) => withTerminal(terminal(), async () => renderTable(head, rows, width));

/** The table's text with the layout taken out: its lines joined and every space removed. */
const squeezed = (table: string) => table.split('\n').join('').replace(/\s/g, '');

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

describe('renderTable', () => {
  it('keeps every character of a last-column word longer than the column', async () => {
    const token = `https://example.com/${'a1b2c3d4e5'.repeat(4)}`;
    expect(token).toHaveLength(60);
    const table = await render(['id', 'content'], [['m1', token]], 50);
    expect(squeezed(table)).toContain(token);
    expect(table).not.toContain('…');
    for (const line of table.split('\n')) expect(stringWidth(line)).toBeLessThanOrEqual(50);
  });

  it('keeps every character of a namespace in a 20-column last column', async () => {
    const namespace = 'project:orders-api-1a2b3c4d';
    // fixed columns: project 12 + golden_rule 13 + total 7, plus 2 per column of gaps: 60 - 40 leaves 20.
    const table = await render(['project', 'golden_rule', 'total', 'namespace'], [['orders-api', '3', '3', namespace]], 60);
    expect(squeezed(table)).toContain(namespace);
    expect(table).not.toContain('…');
  });

  it('sizes the other columns by display width, so a wide-character project name is not cut', async () => {
    const project = '注文サービス';
    const table = await render(['project', 'total', 'namespace'], [[project, '3', 'project:x-1a2b3c4d']], 80);
    expect(table).toContain(project);
    expect(table).not.toContain('…');
  });

  it('still wraps a long sentence in the last column at word boundaries', async () => {
    const sentence = 'Use pnpm for every install in this repository and never commit the lockfile of npm or yarn';
    const table = await render(['id', 'content'], [['m1', sentence]], 40);
    const [, ...body] = table.split('\n');
    expect(body.length).toBeGreaterThan(1);
    expect(body.map((line) => line.slice(6).trimEnd()).join(' ')).toBe(sentence);
  });
});

describe('wrapToWidth', () => {
  it('wraps a sentence at word boundaries with no line wider than the width', () => {
    const sentence = 'the quick brown fox jumps over the lazy dog and then keeps running far away from the farm';
    const lines = wrapToWidth(sentence, 20).split('\n');
    expect(lines.length).toBeGreaterThan(1);
    for (const line of lines) expect(stringWidth(line)).toBeLessThanOrEqual(20);
    expect(lines.join(' ')).toBe(sentence);
  });

  it('splits a run of wide characters by display width and loses none', () => {
    const text = '漢字'.repeat(15);
    const lines = wrapToWidth(text, 20).split('\n');
    for (const line of lines) expect(stringWidth(line)).toBeLessThanOrEqual(20);
    expect(lines).toEqual(['漢字'.repeat(5), '漢字'.repeat(5), '漢字'.repeat(5)]);
  });

  it('never splits an emoji inside its code point', () => {
    const text = `a${'😀'.repeat(20)}`;
    const lines = wrapToWidth(text, 7).split('\n');
    expect(lines.length).toBeGreaterThan(1);
    for (const line of lines) {
      expect(line).not.toMatch(LONE_SURROGATE);
      expect(stringWidth(line)).toBeLessThanOrEqual(7);
    }
    expect(lines.join('')).toBe(text);
  });

  it('keeps a combining mark with the character it belongs to', () => {
    const text = 'e\u0301'.repeat(30);
    const lines = wrapToWidth(text, 7).split('\n');
    expect(lines.length).toBeGreaterThan(1);
    for (const line of lines) {
      expect(line.startsWith('e')).toBe(true);
      expect(stringWidth(line)).toBeLessThanOrEqual(7);
    }
    expect(lines.join('')).toBe(text);
  });

  it('keeps the line breaks of the text, blank lines included', () => {
    expect(wrapToWidth('first line\n\nthird', 20)).toBe('first line\n\nthird');
    expect(wrapToWidth('one two three\nfour', 8)).toBe('one two\nthree\nfour');
  });
});
