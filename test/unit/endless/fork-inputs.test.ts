/** The fork shortens the agent's past file writes, end to end on a small session, keeping what it must. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../../src/core/log.js';
import type { EndlessSettings } from '../../../src/endless/endless-settings.js';
import { entryPaths } from '../../../src/endless/endless-store.js';
import { compressInPlace, forkSession } from '../../../src/endless/fork-session.js';
import { sessionBuilder } from '../../support/session-builder.js';
import { useTempDirs } from '../../support/temp-dir.js';

const tempDir = useTempDirs();
const SESSION = '33333333-4444-4555-8666-777777777777';
const settings: EndlessSettings = {
  enabled: true, minChars: 4000, readMinChars: 16_000, syncTimeoutMs: 60_000, denylist: [], keepRecent: 3, forkMinChars: 1000,
  ollama: { host: 'http://127.0.0.1:1', model: null, numCtx: 8192, timeoutMs: 5_000 },
};
const code = (n: number, tag: string) => Array.from({ length: n }, (_, i) => `export const ${tag}${i} = ${i}; // ${tag} line ${i}`).join('\n');
const written = code(150, 'a');
const failedEdit = { file_path: '/p/b.ts', old_string: code(40, 'b'), new_string: code(45, 'c') };
const recentWrite = { file_path: '/p/c.ts', content: code(60, 'd') };

type Line = { type: string; message: { content: Array<Record<string, unknown>> } };

/** A big Write, a big Edit that failed, two small Bash calls, then a big Write among the last 3 results. */
function writeSession(dir: string): string {
  const session = sessionBuilder(SESSION);
  const call = (id: string, name: string, input: unknown, content: string, isError = false) => session.call(id, name, input, content, { isError, text: `calling ${name}` });
  call('t_write', 'Write', { file_path: '/p/a.ts', content: written }, 'File created successfully at: /p/a.ts');
  call('t_failed', 'Edit', failedEdit, 'String to replace not found in file.', true);
  call('t_ls', 'Bash', { command: 'ls' }, 'a.ts');
  call('t_ls2', 'Bash', { command: 'ls -la' }, 'a.ts b.ts');
  call('t_recent', 'Write', recentWrite, 'File created successfully at: /p/c.ts');
  return session.write(dir);
}

const inputOf = (lines: Line[], id: string) => lines.flatMap((l) => l.message.content).find((b) => b.type === 'tool_use' && b.id === id)!.input as Record<string, unknown>;
const options = (home: string) => ({ home, settings, observe: async () => null as never, now: () => Date.now(), logger: silentLogger, keepRecent: 3, useModel: false });

describe('recall endless fork and the agent\'s own file writes', () => {
  it("puts a marker in place of an old Write's content, after saving the call's whole input", async () => {
    const dir = tempDir();
    const transcript = writeSession(dir);
    const original = readFileSync(transcript);
    const home = join(dir, 'home');
    const summary = await forkSession(transcript, 'bbbbbbbb-0000-4000-8000-000000000001', options(home));
    const out = readFileSync(summary.outputPath, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l) as Line);
    const saved = entryPaths(home, SESSION, 't_write').input;
    expect(inputOf(out, 't_write')).toEqual({ file_path: '/p/a.ts', content: `[recall: 150 lines (${written.length.toLocaleString('en-US')} chars) left out at resume; the file on disk holds its current text; full input: ${saved}]` });
    expect(JSON.parse(readFileSync(saved, 'utf8'))).toMatchObject({ sessionId: SESSION, toolUseId: 't_write', toolName: 'Write', input: { file_path: '/p/a.ts', content: written } });
    expect(readFileSync(transcript)).toEqual(original);
    const before = JSON.stringify({ file_path: '/p/a.ts', content: written }).length;
    expect(summary.inputsCompressed).toBe(1);
    expect(summary.inputs.before).toBe(before);
    expect(summary.before.chars - summary.after.chars).toBe(summary.inputs.before - summary.inputs.after);
  });

  it('keeps whole the input of a failed call and of a call among the last results', async () => {
    const dir = tempDir();
    const home = join(dir, 'home');
    const summary = await forkSession(writeSession(dir), 'bbbbbbbb-0000-4000-8000-000000000002', options(home));
    const out = readFileSync(summary.outputPath, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l) as Line);
    expect(inputOf(out, 't_failed')).toEqual(failedEdit);
    expect(inputOf(out, 't_recent')).toEqual(recentWrite);
  });

  it('shortens the inputs in place too, with the original bytes in the backup, and not again on a second run', async () => {
    const dir = tempDir();
    const transcript = writeSession(dir);
    const original = readFileSync(transcript);
    const home = join(dir, 'home');
    const first = await compressInPlace(transcript, { ...options(home), lockStaleMs: 10_000 });
    expect(first.inputsCompressed).toBe(1);
    expect(readFileSync(first.backupPath!)).toEqual(original);
    const now = readFileSync(transcript, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l) as Line);
    expect(String(inputOf(now, 't_write').content)).toMatch(/^\[recall: 150 lines/);
    const second = await compressInPlace(transcript, { ...options(home), lockStaleMs: 10_000 });
    expect(second).toMatchObject({ inputsCompressed: 0, backupPath: null });
  });
});
