import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { layoutTable, renderTable, wrapToWidth } from '../../../src/cli/output.js';
import { withTerminal, type Terminal } from '../../../src/cli/terminal.js';

function terminal(isTTY: boolean, columns?: number): Terminal {
  return { write: () => undefined, columns, isTTY, noColor: true, cwd: process.cwd() };
}

const render = async (head: string[], rows: string[][], width: number) => layoutTable(head, rows, width);

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
    // fixed columns: project 10 + golden_rule 11 + total 5, and a gap of 2 after each: 60 - 32 leaves 28.
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
    expect(body.map((line) => line.slice(4).trimEnd()).join(' ')).toBe(sentence);
  });
});

describe('renderTable', () => {
  const head = ['id', 'type', 'project', 'age', 'content'];
  const rows = [['01M8G36KQ72A9066NB05J4PEAT', 'preference', 'project:orders-api', '3d', `Run the migrations\twith the dry-run flag first,\nthen ${'read the plan it prints line by line, '.repeat(4)}zebra.`]];

  it('prints a header and one tab-separated line per row when piped, whatever COLUMNS says', async () => {
    for (const columns of [undefined, 40, 300]) {
      const table = await withTerminal(terminal(false, columns), async () => renderTable(head, rows));
      const lines = table.split('\n');
      expect(lines).toEqual([head.join('\t'), expect.stringMatching(/^01M8G36KQ72A9066NB05J4PEAT\tpreference\tproject:orders-api\t3d\tRun the migrations with the dry-run flag first, then read .* zebra\.$/)]);
    }
  });

  it('makes every cell terminal-safe, piped and on a terminal: escape sequences and bidirectional characters; a tab a space', async () => {
    const hostile = [['shop\u001b]0;pwned\u0007', '3', 'project:shop\u202Eevil-1a2b3c4d\tx']];
    for (const isTTY of [false, true]) {
      const table = await withTerminal(terminal(isTTY, 120), async () => renderTable(['project\u001b[2J', 'total', 'namespace'], hostile));
      // eslint-disable-next-line no-control-regex -- the escape and bell characters are what must not get through.
      expect(table).not.toMatch(/[\u001b\u0007\u202E]/);
      expect(table).toContain('shop?]0;pwned?');
      expect(table).toContain('project:shop\\u{202E}evil-1a2b3c4d x');
      expect(table.split('\n')).toHaveLength(2);
    }
  });

  it('fits the width on a terminal, with no line ending in spaces, stacking rows on a narrow one', async () => {
    for (const columns of [40, 60, 80, 120]) {
      const table = await withTerminal(terminal(true, columns), async () => renderTable(head, rows));
      for (const line of table.split('\n')) {
        expect(stringWidth(line), `${columns}: ${line}`).toBeLessThanOrEqual(columns);
        expect(line).not.toMatch(/ $/);
      }
      expect(squeezed(table)).toContain(squeezed(rows[0]![4]!));
      expect(table).toContain('01M8G36KQ72A9066NB05J4PEAT');
    }
  });
});

describe('layoutTable', () => {
  it('keeps a table of short cells aligned at a width that leaves little for the last column', () => {
    const table = layoutTable(['', 'llama3.2:3b', 'qwen2.5:7b'], [['sessions with no usable answer', '0', '1']], 60);
    expect(table.split('\n')).toEqual(['                                llama3.2:3b  qwen2.5:7b', 'sessions with no usable answer  0            1']);
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
