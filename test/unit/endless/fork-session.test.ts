import { appendFileSync, chmodSync, copyFileSync, existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { RecallError, isRecallError } from '../../../src/core/errors.js';
import { silentLogger } from '../../../src/core/log.js';
import type { EndlessSettings } from '../../../src/endless/endless-settings.js';
import { entryPaths, listRecords, readRecord } from '../../../src/endless/endless-store.js';
import { compressInPlace, forkSession } from '../../../src/endless/fork-session.js';
import type { Observation } from '../../../src/endless/observation.js';
import type { ObserveFn } from '../../../src/endless/ollama-observe.js';
import type { PrepareOptions } from '../../../src/endless/prepare-replacements.js';
import { useTempDirs } from '../../support/temp-dir.js';

const tempDir = useTempDirs();
const FIXTURE = fileURLToPath(new URL('../../fixtures/endless/session.jsonl', import.meta.url));
const SESSION = '11111111-2222-4333-8444-555555555555';
const NEW = 'aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee';

const settings: EndlessSettings = {
  enabled: true, minChars: 4000, readMinChars: 16_000, syncTimeoutMs: 60_000, denylist: [], keepRecent: 3, forkMinChars: 1000,
  ollama: { host: 'http://127.0.0.1:1', model: 'llama3.2:3b', numCtx: 8192, timeoutMs: 5_000 },
};

const observation = (title: string): Observation => ({ type: 'discovery', title, subtitle: '', narrative: 'Short.', facts: ['a fact'], concepts: [], files: [] });

function setup(observe: ObserveFn = async (r) => observation(r.prompt.user.split('\n')[0]!)): { dir: string; transcript: string; options: PrepareOptions & { lockStaleMs: number } } {
  const dir = tempDir();
  const transcript = join(dir, `${SESSION}.jsonl`);
  copyFileSync(FIXTURE, transcript);
  return { dir, transcript, options: { home: join(dir, 'home'), settings, observe, now: () => Date.now(), logger: silentLogger, keepRecent: 3, useModel: true, lockStaleMs: 10_000 } };
}

describe('forkSession', () => {
  it('writes the compressed copy beside the original under the new id and never touches the original', async () => {
    const { dir, transcript, options } = setup();
    const before = readFileSync(transcript);
    const summary = await forkSession(transcript, NEW, options);
    expect(readFileSync(transcript).equals(before)).toBe(true);
    expect(summary.outputPath).toBe(join(dir, `${NEW}.jsonl`));
    expect(summary).toMatchObject({ sessionId: SESSION, newSessionId: NEW, results: 7, compressed: 3, observations: 3, reductions: 0, cwd: '/work/demo', backupPath: null });
    expect(summary.after.chars).toBeLessThan(summary.before.chars);
    const out = readFileSync(summary.outputPath, 'utf8').trimEnd().split('\n');
    expect(out.every((line) => (JSON.parse(line) as { sessionId?: string }).sessionId !== SESSION)).toBe(true);
  });

  it('measures its saving on what a resume loads: outputs a compaction already dropped save nothing there', async () => {
    const { transcript, options } = setup();
    const lastUuid = readFileSync(transcript, 'utf8').trimEnd().split('\n').map((line) => (JSON.parse(line) as { uuid?: string }).uuid).filter(Boolean).pop()!;
    const compacted = [
      { type: 'system', subtype: 'compact_boundary', uuid: 'b-1', parentUuid: null, logicalParentUuid: lastUuid, sessionId: SESSION, content: 'Conversation compacted' },
      { type: 'user', uuid: 's-1', parentUuid: 'b-1', sessionId: SESSION, isCompactSummary: true, message: { role: 'user', content: 'Summary of the session so far.' } },
      { type: 'user', uuid: 'u-9', parentUuid: 's-1', sessionId: SESSION, message: { role: 'user', content: 'Go on.' } },
    ];
    appendFileSync(transcript, compacted.map((r) => `${JSON.stringify(r)}\n`).join(''));
    const summary = await forkSession(transcript, NEW, options);
    expect(summary.compressed).toBe(3);
    expect(summary.after.chars).toBeLessThan(summary.before.chars);
    expect(summary.resume).toEqual({ lines: 2, compacted: true, before: { chars: 36, toolResultChars: 0, mediaChars: 0 }, after: { chars: 36, toolResultChars: 0, mediaChars: 0 } });
  });

  it('counts the compressed outputs on the resumed chain of a session never compacted', async () => {
    const { transcript, options } = setup();
    const summary = await forkSession(transcript, NEW, options);
    expect(summary.resume.before.chars - summary.resume.after.chars).toBe(summary.replaced.before - summary.replaced.after);
  });

  it('gives the fork the original file mode', async () => {
    const { transcript, options } = setup();
    chmodSync(transcript, 0o640);
    const summary = await forkSession(transcript, NEW, options);
    expect(statSync(summary.outputPath).mode & 0o777).toBe(0o640);
  });

  it('saves every replaced output in full first and stores its observation', async () => {
    const { transcript, options } = setup();
    await forkSession(transcript, NEW, options);
    const records = listRecords(options.home, SESSION);
    expect(records.map((r) => r.toolUseId).sort()).toEqual(['toolu_fixture_01', 'toolu_fixture_02', 'toolu_fixture_03']);
    const paths = entryPaths(options.home, SESSION, 'toolu_fixture_02');
    expect(readFileSync(paths.text, 'utf8')).toMatch(/^ {5}1→export function helper0/);
    expect(readRecord(paths.record)).toMatchObject({ observation: { title: 'Tool: Read' }, attempts: 1 });
  });

  it('uses stored observations instead of asking again', async () => {
    const { transcript, options } = setup();
    await forkSession(transcript, NEW, options);
    let calls = 0;
    const second = await forkSession(transcript, 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb', { ...options, observe: async () => { calls += 1; return observation('x'); } });
    expect(calls).toBe(0);
    expect(second.observations).toBe(3);
  });

  it('falls back to reductions, and stops asking, when Ollama is down', async () => {
    let calls = 0;
    const { transcript, options } = setup(async () => {
      calls += 1;
      throw new RecallError('LLM_UNAVAILABLE', 'Cannot reach Ollama');
    });
    const summary = await forkSession(transcript, NEW, options);
    expect(calls).toBe(1);
    expect(summary).toMatchObject({ compressed: 3, observations: 0, reductions: 3, modelError: 'LLM_UNAVAILABLE: Cannot reach Ollama' });
  });

  it('never calls the model when told not to', async () => {
    let calls = 0;
    const { transcript, options } = setup(async () => { calls += 1; return observation('x'); });
    const summary = await forkSession(transcript, NEW, { ...options, useModel: false, keepRecent: 0 });
    expect(calls).toBe(0);
    expect(summary).toMatchObject({ compressed: 5, reductions: 5 });
  });

  it('writes nothing for a malformed transcript', async () => {
    const { dir, transcript, options } = setup();
    appendFileSync(transcript, 'garbage\n{"type":"user"}\n');
    await expect(forkSession(transcript, NEW, options)).rejects.toSatisfy((err) => isRecallError(err, 'TRANSCRIPT_UNREADABLE'));
    expect(readdirSync(dir).filter((n) => n.endsWith('.jsonl'))).toEqual([`${SESSION}.jsonl`]);
  });
});

describe('compressInPlace', () => {
  it('compresses the file itself after keeping a backup of the original bytes', async () => {
    const { transcript, options } = setup();
    const before = readFileSync(transcript);
    const summary = await compressInPlace(transcript, options);
    expect(summary.compressed).toBe(3);
    expect(summary.backupPath).not.toBeNull();
    expect(readFileSync(summary.backupPath!).equals(before)).toBe(true);
    const after = readFileSync(transcript, 'utf8').trimEnd().split('\n');
    expect(after).toHaveLength(before.toString().trimEnd().split('\n').length);
    expect(after.filter((line) => line.includes('[recall: Read output of'))).toHaveLength(1);
    expect(after.every((line) => (JSON.parse(line) as { sessionId?: string }).sessionId !== NEW)).toBe(true);
    expect(readFileSync(transcript, 'utf8')).toContain(`"sessionId":"${SESSION}"`);
  });

  it('keeps the file mode of the original in the rewrite and the backup', async () => {
    const { transcript, options } = setup();
    chmodSync(transcript, 0o640);
    const summary = await compressInPlace(transcript, options);
    expect(summary.compressed).toBe(3);
    expect(statSync(transcript).mode & 0o777).toBe(0o640);
    expect(statSync(summary.backupPath!).mode & 0o777).toBe(0o640);
  });

  it('refuses when the session appends to the file while it works, leaving no temp file and no backup', async () => {
    const extra = `${JSON.stringify({ type: 'user', uuid: 'late', message: { role: 'user', content: 'still here' } })}\n`;
    let appended = false;
    const { dir, transcript, options } = setup(async () => {
      if (!appended) appendFileSync(transcript, extra);
      appended = true;
      return observation('x');
    });
    const before = readFileSync(transcript, 'utf8');
    await expect(compressInPlace(transcript, options)).rejects.toThrow(/changed while it was being compressed/);
    expect(readFileSync(transcript, 'utf8')).toBe(before + extra);
    expect(readdirSync(dir).filter((n) => n.includes('.recall-'))).toEqual([]);
  });

  it('refuses to run twice on the same file at once', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => { release = resolve; });
    const { transcript, options } = setup(async () => { await gate; return observation('x'); });
    const first = compressInPlace(transcript, options);
    await new Promise((resolve) => setTimeout(resolve, 50));
    await expect(compressInPlace(transcript, options)).rejects.toSatisfy((err) => isRecallError(err, 'LOCK_HELD'));
    release();
    await first;
  });

  it('leaves the file alone when nothing is worth compressing', async () => {
    const { transcript, options } = setup();
    const before = statSync(transcript).mtimeMs;
    const summary = await compressInPlace(transcript, { ...options, settings: { ...settings, minChars: 1_000_000, readMinChars: 1_000_000, forkMinChars: 1_000_000 } });
    expect(summary).toMatchObject({ compressed: 0, backupPath: null });
    expect(statSync(transcript).mtimeMs).toBe(before);
    expect(existsSync(`${transcript}.lock`)).toBe(false);
  });
});
