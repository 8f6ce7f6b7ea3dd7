import { Readable } from 'node:stream';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { limitLineBytes } from '../../../src/transcript/limit-line-bytes.js';

async function readLines(chunks: Array<string | Buffer>, maxBytes: number): Promise<string[]> {
  const limited = limitLineBytes(Readable.from(chunks), maxBytes, (line) => new Error(`line ${line} too long`));
  const lines: string[] = [];
  for await (const line of createInterface({ input: limited, crlfDelay: Infinity })) lines.push(line);
  return lines;
}

describe('limitLineBytes', () => {
  it('passes lines within the limit through unchanged, across chunk boundaries', async () => {
    expect(await readLines(['ab', 'cd\nef', '\n', 'gh\n'], 4)).toEqual(['abcd', 'ef', 'gh']);
  });

  it('fails with the number of the first line past the limit, even when it arrives in pieces', async () => {
    await expect(readLines(['ok\n', 'abc', 'def', '\nnever\n'], 5)).rejects.toThrow('line 2 too long');
  });

  it('counts bytes, not characters', async () => {
    // Three characters, six bytes in UTF-8.
    await expect(readLines([Buffer.from('ééé\n')], 5)).rejects.toThrow('line 1 too long');
    expect(await readLines([Buffer.from('ééé\n')], 6)).toEqual(['ééé']);
  });

  it('fails on a line that never ends before it has been held whole', async () => {
    const endless = Readable.from((function* () {
      for (let i = 0; i < 1_000_000; i += 1) yield 'x'.repeat(1024);
    })());
    const limited = limitLineBytes(endless, 64 * 1024, (line) => new Error(`line ${line} too long`));
    const reading = (async () => {
      for await (const line of createInterface({ input: limited })) void line;
    })();
    await expect(reading).rejects.toThrow('line 1 too long');
  });
});
