/** The fork's resume-only rules, end to end on a small session, against the live hook's answer for the same output. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../../src/core/log.js';
import { compressToolOutput } from '../../../src/endless/compress-tool-output.js';
import type { EndlessSettings } from '../../../src/endless/endless-settings.js';
import { entryPaths } from '../../../src/endless/endless-store.js';
import { forkSession } from '../../../src/endless/fork-session.js';
import type { Observation } from '../../../src/endless/observation.js';
import { sessionBuilder } from '../../support/session-builder.js';
import { useTempDirs } from '../../support/temp-dir.js';

const tempDir = useTempDirs();
const SESSION = '22222222-3333-4444-8555-666666666666';
const settings: EndlessSettings = {
  enabled: true, minChars: 4000, readMinChars: 16_000, syncTimeoutMs: 60_000, denylist: [], keepRecent: 3, forkMinChars: 1000,
  ollama: { host: 'http://127.0.0.1:1', model: 'llama3.2:3b', numCtx: 8192, timeoutMs: 5_000 },
};
const observation: Observation = { type: 'discovery', title: 'src/a.ts', subtitle: '', narrative: 'Defines the refund helpers.', facts: ['refund() at line 40'], concepts: [], files: ['src/a.ts'] };

const source = Array.from({ length: 120 }, (_, i) => `${String(i + 1).padStart(6)}→${i % 20 === 0 ? `export function f${i}(x: number) {` : `  const v${i} = x * ${i}; // running total`}`).join('\n');
const readResult = { type: 'text', file: { filePath: '/p/src/a.ts', content: source, numLines: 120, startLine: 1, totalLines: 120 } };
const editEcho = `The file /p/src/a.ts has been updated. Here's the result of running \`cat -n\` on a snippet of the edited file:\n${source}`;
const editResult = { filePath: '/p/src/a.ts', oldString: 'x * 1', newString: 'x * 2', originalFile: source, structuredPatch: [], userModified: false, replaceAll: false };
const testLog = Array.from({ length: 60 }, (_, i) => ` ✓ test/unit/t${i}.test.ts (3 tests) ${i + 2}ms`).join('\n');

/** Read a.ts (about 5k, under readMinChars), Edit it (echo), Edit it again, a 2.5k test log, then three small results. */
function writeSession(dir: string): string {
  const session = sessionBuilder(SESSION);
  const call = (id: string, name: string, input: unknown, content: string, toolUseResult: unknown) => session.call(id, name, input, content, { toolUseResult });
  call('t_read', 'Read', { file_path: '/p/src/a.ts' }, source, readResult);
  call('t_edit1', 'Edit', { file_path: '/p/src/a.ts', old_string: 'x * 1', new_string: 'x * 2' }, editEcho, editResult);
  call('t_edit2', 'Edit', { file_path: '/p/src/a.ts', old_string: 'x * 2', new_string: 'x * 3' }, 'The file /p/src/a.ts has been updated.', { ...editResult, oldString: 'x * 2' });
  call('t_test', 'Bash', { command: 'npm test' }, testLog, { stdout: testLog, stderr: '', interrupted: false, isImage: false });
  for (const i of [1, 2, 3]) call(`t_small${i}`, 'Bash', { command: 'git status' }, 'clean', { stdout: 'clean', stderr: '', interrupted: false, isImage: false });
  return session.write(dir);
}

async function fork(useModel: boolean) {
  const dir = tempDir();
  const transcript = writeSession(dir);
  const home = join(dir, 'home');
  const summary = await forkSession(transcript, 'aaaaaaaa-0000-4000-8000-000000000001', { home, settings, observe: async () => observation, now: () => Date.now(), logger: silentLogger, keepRecent: 3, useModel });
  const out = readFileSync(summary.outputPath, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l) as { message: { content: Array<{ content?: unknown }> }; toolUseResult?: unknown });
  const result = (i: number) => ({ text: out[i]!.message.content[0]!.content as string, structured: out[i]!.toolUseResult });
  return { home, summary, read: result(1), edit: result(3), test: result(7), small: result(13) };
}

describe('recall endless fork beyond the live rules', () => {
  it('compresses a Read under readMinChars once the session edited the file, saying why and where the full text is', async () => {
    const { home, read } = await fork(false);
    expect(source.length).toBeLessThan(settings.readMinChars);
    expect(read.text).toMatch(/^\[recall: Read output of [\d,]+ chars, reduced: .*; out of date: a later Edit changed this file\]/);
    const pointer = `Full output: ${entryPaths(home, SESSION, 't_read').text}`;
    expect(read.text.split('\n').at(-1)).toContain(pointer);
    expect(readFileSync(entryPaths(home, SESSION, 't_read').text, 'utf8')).toBe(source);
    expect(read.text.length).toBeLessThanOrEqual(source.length / 2);
    expect(read.structured).toMatchObject({ type: 'text', file: { filePath: '/p/src/a.ts', totalLines: 120, content: read.text } });
  });

  it('compresses a superseded Edit echo in what the model reads and keeps the edit record itself', async () => {
    const { edit } = await fork(false);
    expect(edit.text).toMatch(/^\[recall: Edit output of [\d,]+ chars, .*a later Edit changed this file\]/);
    expect(edit.structured).toEqual(editResult);
  });

  it('compresses a 2.5k test log at resume, and only when the replacement at least halves it', async () => {
    const { test, summary } = await fork(true);
    expect(testLog.length).toBeGreaterThan(settings.forkMinChars);
    expect(testLog.length).toBeLessThan(settings.minChars);
    expect(test.text).toMatch(/^\[recall: Bash output of [\d,]+ chars, compressed to an observation\]/);
    expect(test.text.length).toBeLessThanOrEqual(testLog.length / 2);
    expect(summary).toMatchObject({ compressed: 3, observations: 3 });
  });

  it('keeps the last results whole', async () => {
    const { small } = await fork(true);
    expect(small.text).toBe('clean');
  });

  it('while the live hook leaves the same Read and the same test log alone', async () => {
    const deps = { home: tempDir(), now: () => Date.now(), deadlineAt: Date.now() + 5_000, observe: async () => observation, logger: silentLogger, spawnCompleter: async () => true };
    const base = { sessionId: SESSION, toolUseId: 'live_1' };
    expect(await compressToolOutput({ ...base, toolName: 'Read', toolInput: { file_path: '/p/src/a.ts' }, toolResponse: readResult }, settings, deps)).toEqual({});
    expect(await compressToolOutput({ ...base, toolName: 'Bash', toolInput: { command: 'npm test' }, toolResponse: { stdout: testLog, stderr: '', interrupted: false, isImage: false } }, settings, deps)).toEqual({});
    expect(await compressToolOutput({ ...base, toolName: 'Edit', toolInput: { file_path: '/p/src/a.ts' }, toolResponse: editResult }, { ...settings, minChars: 1 }, deps)).toEqual({});
  });
});
