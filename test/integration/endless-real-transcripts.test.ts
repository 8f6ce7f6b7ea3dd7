/**
 * Endless Mode fork over the real Claude Code transcripts in ../shared/fixtures (present in the
 * development workspace, absent from a user's clone: the suite skips itself then), with
 * observations from the Ollama-protocol double. Each transcript is copied to a temp dir first, so
 * nothing is ever written next to the shared fixtures.
 */
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, readFileSync, readdirSync } from 'node:fs';
import { basename, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/core/log.js';
import { resultIds } from '../../src/endless/check-fork.js';
import { ENDLESS_DEFAULTS } from '../../src/endless/endless-defaults.js';
import { entryPaths } from '../../src/endless/endless-store.js';
import { forkSession } from '../../src/endless/fork-session.js';
import { findFileWrites } from '../../src/endless/resume-inputs.js';
import { requestObservation } from '../../src/endless/ollama-observe.js';
import { OllamaDouble, type StartedDouble } from '../../scripts/ollama-double.mjs';
import { compactObservationReply } from '../fixtures/endless/compact-reply.mjs';
import { useTempDirs } from '../support/temp-dir.js';

const dir = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../../shared/fixtures/transcripts');
const files = existsSync(dir)
  ? readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((n) => n.endsWith('.jsonl')).map((n) => join(dir, n)).sort()
  : [];
const tempDir = useTempDirs();
const sha = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');
const LONG = '258c7280-ae70-4798-800f-63464d01a85d.jsonl';

/** Forks a temp copy of a real transcript with default settings; with the model, observations come from the double. */
async function forkCopy(file: string, newId: string, useModel: boolean) {
  const work = tempDir();
  const copy = join(work, basename(file));
  copyFileSync(file, copy);
  const home = join(work, 'home');
  const summary = await forkSession(copy, newId, {
    home,
    settings: { ...ENDLESS_DEFAULTS, denylist: [], enabled: true, ollama: { host: ollama.url, model: useModel ? 'llama3.2:3b' : null, numCtx: 8192, timeoutMs: 10_000 } },
    observe: requestObservation, now: () => Date.now(), logger: silentLogger, keepRecent: ENDLESS_DEFAULTS.keepRecent, useModel,
  });
  return { copy, home, summary };
}

let double: OllamaDouble;
let ollama: StartedDouble;
beforeAll(async () => {
  double = new OllamaDouble({ reply: compactObservationReply });
  ollama = await double.start();
});
afterAll(async () => {
  await ollama.close();
});

describe.skipIf(files.length === 0)('Endless Mode fork on real transcripts', () => {
  it.each(files.map((file) => [relative(dir, file), file]))('forks %s into valid JSON lines, every tool_use still answered, the original unchanged', async (_name, file) => {
    const shared = sha(file);
    const lines = readFileSync(file, 'utf8').split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l) as Record<string, unknown>);
    if (!lines.some((r) => (r.type === 'user' || r.type === 'assistant') && typeof r.sessionId === 'string')) {
      // An old session file of snapshots and a title alone: nothing to resume, so nothing is written.
      await expect(forkCopy(file, '0f0f0f0f-1111-4222-8333-444444444444', true)).rejects.toThrow(/holds no Claude Code messages/);
      return;
    }
    const { copy, summary } = await forkCopy(file, '0f0f0f0f-1111-4222-8333-444444444444', true);
    // Neither the fixture nor the copy the fork read was changed.
    expect(sha(file)).toBe(shared);
    expect(sha(copy)).toBe(shared);
    const input = readFileSync(copy, 'utf8').split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l) as Record<string, unknown>);
    const output = readFileSync(summary.outputPath, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(output).toHaveLength(input.length);
    expect(resultIds(output)).toEqual(resultIds(input));
    expect(output.map((r) => `${String(r.uuid)}<${String(r.parentUuid)}`)).toEqual(input.map((r) => `${String(r.uuid)}<${String(r.parentUuid)}`));
    expect(summary.after.chars).toBeLessThanOrEqual(summary.before.chars);
    // Each compressed result is an observation, or the reduction where that is shorter than the observation allowed.
    expect(summary.observations + summary.reductions).toBe(summary.compressed);
    expect(summary.observations).toBeGreaterThanOrEqual(summary.reductions);
  });

  it('shrinks the compressed results of the long real session by at least 85%', async () => {
    const file = files.find((f) => f.endsWith(LONG));
    if (!file) return;
    const { summary } = await forkCopy(file, '0f0f0f0f-1111-4222-8333-555555555555', true);
    expect(summary.compressed).toBeGreaterThan(5);
    expect(summary.replaced.after).toBeLessThan(summary.replaced.before * 0.15);
    // A result of several text blocks counts "\n\n" between them as replaced text, not as conversation.
    const expected = summary.before.toolResultChars - summary.replaced.before + summary.replaced.after;
    expect(summary.after.toolResultChars).toBeGreaterThanOrEqual(expected);
    expect(summary.after.toolResultChars - expected).toBeLessThanOrEqual(2 * summary.compressed);
  });

  it("shortens the long real session's past Write and Edit inputs, each saved whole first, every call kept", async () => {
    const file = files.find((f) => f.endsWith(LONG));
    if (!file) return;
    const { copy, home, summary } = await forkCopy(file, '0f0f0f0f-1111-4222-8333-666666666666', false);
    const uses = (path: string) => new Map(findFileWrites(readFileSync(path, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>)).map((u) => [u.toolUseId, u] as const));
    const [before, after] = [uses(copy), uses(summary.outputPath)];
    expect([...after.keys()]).toEqual([...before.keys()]);
    const shortened = [...after.values()].filter((u) => JSON.stringify(u.input) !== JSON.stringify(before.get(u.toolUseId)!.input));
    expect(shortened.length).toBe(summary.inputsCompressed);
    expect(summary.inputsCompressed).toBeGreaterThan(5);
    expect(summary.inputs.after).toBeLessThanOrEqual(summary.inputs.before / 2);
    for (const u of shortened) {
      const saved = JSON.parse(readFileSync(entryPaths(home, summary.sessionId, u.toolUseId).input, 'utf8')) as { input: unknown };
      expect(saved.input).toEqual(before.get(u.toolUseId)!.input);
    }
  });
});
