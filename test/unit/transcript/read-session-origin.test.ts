import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_ORIGIN_BYTES, readSessionOrigin } from '../../../src/transcript/read-session-origin.js';
import { useTempDirs } from '../../support/temp-dir.js';

const tempDir = useTempDirs();

function transcript(lines: readonly string[]): string {
  const path = join(tempDir('recall-origin-'), 'session.jsonl');
  writeFileSync(path, lines.join('\n'));
  return path;
}

const named = JSON.stringify({ type: 'user', cwd: '/work/app', sessionId: 'abc-123', message: { role: 'user', content: 'hi' } });

describe('readSessionOrigin', () => {
  it("takes the project and id from Claude Code's lines and droid's session_start line (CRLF ends too)", async () => {
    expect(await readSessionOrigin(transcript(['{"type":"summary"}', named]))).toEqual({ cwd: '/work/app', sessionId: 'abc-123' });
    const droid = transcript([JSON.stringify({ type: 'session_start', id: 'd-1', cwd: '/work/d' }) + '\r', '{"type":"message"}']);
    expect(await readSessionOrigin(droid)).toEqual({ cwd: '/work/d', sessionId: 'd-1' });
  });

  it('passes over a tool output line of megabytes to the line that names the session', async () => {
    const big = JSON.stringify({ type: 'user', toolUseResult: 'x'.repeat(3_000_000) });
    expect(await readSessionOrigin(transcript(['{"type":"summary"}', big, named]))).toEqual({ cwd: '/work/app', sessionId: 'abc-123' });
  });

  it('reads no further than its byte bound, however long the first line is', async () => {
    const endless = 'y'.repeat(MAX_ORIGIN_BYTES + 1024);
    expect(await readSessionOrigin(transcript([endless, named]))).toEqual({ cwd: null, sessionId: null });
  });

  it('says which file it could not read', async () => {
    await expect(readSessionOrigin(join(tempDir('recall-origin-'), 'missing.jsonl'))).rejects.toThrow(/missing\.jsonl/);
  });
});
