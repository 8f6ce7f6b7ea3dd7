import { appendFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isRecallError } from '../../../src/core/errors.js';
import { parseSnapshot, readTranscriptSnapshot } from '../../../src/endless/transcript-snapshot.js';
import { useTempDirs } from '../../support/temp-dir.js';

const tempDir = useTempDirs();
const a = JSON.stringify({ type: 'user', uuid: 'a' });
const b = JSON.stringify({ type: 'assistant', uuid: 'b' });
const parse = (text: string) => parseSnapshot('t.jsonl', Buffer.from(text), 0);
const texts = (lines: Buffer[]) => lines.map((line) => line.toString('utf8'));

describe('transcript snapshots', () => {
  it('drops a last line that is still being written', () => {
    const snap = parse(`${a}\n${b}\n{"type":"us`);
    expect(texts(snap.lines)).toEqual([a, b]);
    expect(snap.droppedPartialTail).toBe(true);
  });

  it('keeps a complete last line that lacks its newline', () => {
    const snap = parse(`${a}\n${b}`);
    expect(texts(snap.lines)).toEqual([a, b]);
    expect(snap.droppedPartialTail).toBe(false);
  });

  it('refuses a malformed line in the middle, naming it', () => {
    expect(() => parse(`${a}\nnot json\n${b}\n`)).toThrow('t.jsonl is not a Claude Code session: line 2 is not a JSON object; nothing was written');
  });

  it('skips blank lines and accepts a byte-order mark', () => {
    expect(parse(`\uFEFF${a}\n\n${b}\n`).records).toEqual([{ type: 'user', uuid: 'a' }, { type: 'assistant', uuid: 'b' }]);
  });

  it('reads only the bytes that were there when it looked', async () => {
    const file = join(tempDir(), 's.jsonl');
    writeFileSync(file, `${a}\n`);
    const snap = await readTranscriptSnapshot(file);
    appendFileSync(file, `${b}\n`);
    expect(texts(snap.lines)).toEqual([a]);
    expect(snap.size).toBe(a.length + 1);
  });

  it('keeps each line as the exact bytes of the file, CR, byte-order mark and characters outside ASCII included', () => {
    const text = `\uFEFF${a}\r\n${JSON.stringify({ type: 'user', text: 'café → ✓ 🙂' })}\n`;
    const snap = parse(text);
    expect(Buffer.concat(snap.lines.flatMap((line) => [line, Buffer.from('\n')])).equals(Buffer.from(text))).toBe(true);
    expect(snap.records[1]).toEqual({ type: 'user', text: 'café → ✓ 🙂' });
  });

  it('names the right line of a file with blank lines and characters outside ASCII', () => {
    expect(() => parse(`${JSON.stringify({ t: 'é✓' })}\n\n{"t": "ü"\n${b}\n`)).toThrow('t.jsonl is not a Claude Code session: line 3 is not a JSON object');
  });

  it('gives coded errors for a missing file, a directory and a binary file', async () => {
    const dir = tempDir();
    await expect(readTranscriptSnapshot(join(dir, 'none.jsonl'))).rejects.toSatisfy((err) => isRecallError(err, 'TRANSCRIPT_MISSING'));
    await expect(readTranscriptSnapshot(dir)).rejects.toSatisfy((err) => isRecallError(err, 'TRANSCRIPT_UNREADABLE'));
    writeFileSync(join(dir, 'bin.jsonl'), Buffer.from([0x7b, 0, 0x7d, 0x0a]));
    await expect(readTranscriptSnapshot(join(dir, 'bin.jsonl'))).rejects.toSatisfy((err) => isRecallError(err, 'TRANSCRIPT_UNREADABLE'));
  });
});
