import { writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { forEachLine, type LineSpan } from '../../../src/transcript/read-lines.js';
import { useTempDirs } from '../../support/temp-dir.js';

const tempDir = useTempDirs();

async function readLines(content: string | Buffer, span: Partial<LineSpan> = {}): Promise<string[]> {
  const path = join(tempDir(), 'lines.txt');
  writeFileSync(path, content);
  const handle = await open(path, 'r');
  const lines: string[] = [];
  try {
    await forEachLine(handle, { start: 0, maxLineBytes: 1024, tooLong: (line) => new Error(`line ${line} too long`), chunkBytes: 3, ...span }, (line) => lines.push(line));
  } finally {
    await handle.close();
  }
  return lines;
}

async function readlineLines(content: string): Promise<string[]> {
  const lines: string[] = [];
  for await (const line of createInterface({ input: Readable.from([content]), crlfDelay: Infinity })) lines.push(line);
  return lines;
}

describe('forEachLine', () => {
  it('splits lines across chunk boundaries', async () => {
    expect(await readLines('abcd\nef\n\ngh\n')).toEqual(['abcd', 'ef', '', 'gh']);
  });

  it('ends lines where node:readline ends them: LF, CRLF (split between chunks too) and a lone CR', async () => {
    const text = 'a\rb\nc\r\nd\r\re\r\n\nf\r';
    for (const chunkBytes of [1, 2, 3, 5, 64]) expect(await readLines(text, { chunkBytes })).toEqual(await readlineLines(text));
  });

  it('gives the last line without a newline, and nothing for an empty file', async () => {
    expect(await readLines('one\ntwo')).toEqual(['one', 'two']);
    expect(await readLines('')).toEqual([]);
  });

  it('decodes characters split between chunks', async () => {
    expect(await readLines('ééé 日本 🎉\nü\n', { chunkBytes: 1 })).toEqual(['ééé 日本 🎉', 'ü']);
  });

  it('reads only the span from start to end', async () => {
    expect(await readLines('skip\nkeep one\nkeep two\nafter\n', { start: 5, end: 23 })).toEqual(['keep one', 'keep two']);
  });

  it('fails with the number of the first line past the limit, even when it arrives in pieces', async () => {
    await expect(readLines('ok\nabcdef\nnever\n', { maxLineBytes: 5 })).rejects.toThrow('line 2 too long');
  });

  it('counts bytes, not characters', async () => {
    // Three characters, six bytes in UTF-8.
    await expect(readLines('ééé\n', { maxLineBytes: 5 })).rejects.toThrow('line 1 too long');
    expect(await readLines('ééé\n', { maxLineBytes: 6 })).toEqual(['ééé']);
  });

  it('fails on a line that never ends before it has been held whole', async () => {
    const lines: string[] = [];
    await expect(readLines('x'.repeat(200_000), { maxLineBytes: 1024, chunkBytes: 256, end: undefined }).then((l) => lines.push(...l))).rejects.toThrow('line 1 too long');
    expect(lines).toEqual([]);
  });
});
