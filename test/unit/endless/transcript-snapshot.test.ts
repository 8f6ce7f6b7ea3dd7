import { appendFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isRecallError } from '../../../src/core/errors.js';
import { parseSnapshot, readTranscriptSnapshot } from '../../../src/endless/transcript-snapshot.js';
import { useTempDirs } from '../../support/temp-dir.js';

const tempDir = useTempDirs();
const a = JSON.stringify({ type: 'user', uuid: 'a' });
const b = JSON.stringify({ type: 'assistant', uuid: 'b' });

describe('transcript snapshots', () => {
  it('drops a last line that is still being written', () => {
    const snap = parseSnapshot('t.jsonl', `${a}\n${b}\n{"type":"us`, 100, 0);
    expect(snap.lines).toEqual([a, b]);
    expect(snap.droppedPartialTail).toBe(true);
  });

  it('keeps a complete last line that lacks its newline', () => {
    expect(parseSnapshot('t.jsonl', `${a}\n${b}`, 100, 0)).toMatchObject({ lines: [a, b], droppedPartialTail: false });
  });

  it('refuses a malformed line in the middle, naming it', () => {
    expect(() => parseSnapshot('t.jsonl', `${a}\nnot json\n${b}\n`, 100, 0)).toThrow('line 2 of t.jsonl is not a JSON object; nothing was written');
  });

  it('skips blank lines and accepts a byte-order mark', () => {
    expect(parseSnapshot('t.jsonl', `\uFEFF${a}\n\n${b}\n`, 100, 0).records).toEqual([{ type: 'user', uuid: 'a' }, { type: 'assistant', uuid: 'b' }]);
  });

  it('reads only the bytes that were there when it looked', async () => {
    const file = join(tempDir(), 's.jsonl');
    writeFileSync(file, `${a}\n`);
    const snap = await readTranscriptSnapshot(file);
    appendFileSync(file, `${b}\n`);
    expect(snap.lines).toEqual([a]);
    expect(snap.size).toBe(a.length + 1);
  });

  it('gives coded errors for a missing file, a directory and a binary file', async () => {
    const dir = tempDir();
    await expect(readTranscriptSnapshot(join(dir, 'none.jsonl'))).rejects.toSatisfy((err) => isRecallError(err, 'TRANSCRIPT_MISSING'));
    await expect(readTranscriptSnapshot(dir)).rejects.toSatisfy((err) => isRecallError(err, 'TRANSCRIPT_UNREADABLE'));
    writeFileSync(join(dir, 'bin.jsonl'), Buffer.from([0x7b, 0, 0x7d, 0x0a]));
    await expect(readTranscriptSnapshot(join(dir, 'bin.jsonl'))).rejects.toSatisfy((err) => isRecallError(err, 'TRANSCRIPT_UNREADABLE'));
  });
});
