import { copyFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../../src/core/log.js';
import { backfillSession } from '../../../src/endless/backfill-session.js';
import type { EndlessSettings } from '../../../src/endless/endless-settings.js';
import type { ObservationRecord } from '../../../src/endless/endless-store.js';
import { compressInPlace, forkSession } from '../../../src/endless/fork-session.js';
import type { ObserveFn } from '../../../src/endless/ollama-observe.js';
import { listSavings, recordSavings, savingsDir, type SavingsEntry } from '../../../src/endless/savings-ledger.js';
import { summarizeSources } from '../../../src/endless/summarize-sources.js';
import { useTempDirs } from '../../support/temp-dir.js';

const tempDir = useTempDirs();
const FIXTURE = fileURLToPath(new URL('../../fixtures/endless/session.jsonl', import.meta.url));
const SESSION = '11111111-2222-4333-8444-555555555555';
const NEW = 'aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee';
const settings: EndlessSettings = {
  enabled: true, minChars: 4000, readMinChars: 16_000, syncTimeoutMs: 60_000, denylist: [], keepRecent: 3, forkMinChars: 1000,
  ollama: { host: 'http://127.0.0.1:1', model: 'm', numCtx: 8192, timeoutMs: 5_000 },
};
const observe: ObserveFn = async () => ({ type: 'discovery', title: 't', subtitle: '', narrative: 'n', facts: [], concepts: [], files: [] });

function setup() {
  const dir = tempDir();
  const transcript = join(dir, `${SESSION}.jsonl`);
  copyFileSync(FIXTURE, transcript);
  const home = join(dir, 'home');
  return { transcript, home, options: { home, settings, observe, now: () => Date.now(), logger: silentLogger, keepRecent: 3, useModel: true, lockStaleMs: 10_000 } };
}

describe('the savings ledger', () => {
  it('notes what a backfill wrote and what a fork and an in-place rewrite replaced, in private files', async () => {
    const { transcript, home, options } = setup();
    const backfill = await backfillSession(transcript, { ...options, retry: false });
    const fork = await forkSession(transcript, NEW, options);
    const inPlace = await compressInPlace(transcript, options);
    const entries = listSavings(home);
    expect(entries.map((e) => e.source).sort()).toEqual(['backfill', 'fork', 'in-place']);
    const bySource = Object.fromEntries(entries.map((e) => [e.source, e]));
    expect(bySource.backfill).toMatchObject({ sessionId: SESSION, outputs: backfill.created, resume: null });
    expect(bySource.backfill!.originalChars).toBeGreaterThan(bySource.backfill!.shownChars);
    expect(bySource.fork).toMatchObject({
      sessionId: SESSION, newSessionId: NEW, outputs: fork.compressed + fork.inputsCompressed,
      originalChars: fork.replaced.before + fork.inputs.before, shownChars: fork.replaced.after + fork.inputs.after,
      resume: { beforeChars: fork.resume.before.chars, afterChars: fork.resume.after.chars },
      wholeFile: { beforeChars: fork.before.chars, afterChars: fork.after.chars },
    });
    expect(bySource['in-place']).toMatchObject({ newSessionId: null, outputs: inPlace.compressed + inPlace.inputsCompressed });
    expect(statSync(savingsDir(home)).mode & 0o777).toBe(0o700);
    for (const name of readdirSync(savingsDir(home))) expect(statSync(join(savingsDir(home), name)).mode & 0o777).toBe(0o600);
  });

  it('notes nothing for a run that replaced nothing', async () => {
    const { transcript, home, options } = setup();
    const none = { ...options, settings: { ...settings, minChars: 1_000_000, readMinChars: 1_000_000, forkMinChars: 1_000_000 } };
    await forkSession(transcript, NEW, none);
    await compressInPlace(transcript, none);
    expect(listSavings(home)).toEqual([]);
  });

  it('logs, and does not throw, when the note cannot be written', () => {
    const home = tempDir();
    writeFileSync(join(home, 'endless'), 'a file where the folder should be');
    const logged: string[] = [];
    const logger = { log: (_level: string, msg: string) => void logged.push(msg) };
    const entry: SavingsEntry = { version: 1, source: 'fork', sessionId: 's', newSessionId: 'n', at: '2026-01-01T00:00:00.000Z', outputs: 1, originalChars: 10, shownChars: 1, resume: null, wholeFile: null };
    expect(() => recordSavings(home, entry, logger)).not.toThrow();
    expect(logged).toEqual([expect.stringMatching(/^could not note what fork saved: /)]);
  });

  it('skips files that are not entries', () => {
    const home = tempDir();
    const entry: SavingsEntry = { version: 1, source: 'fork', sessionId: 's', newSessionId: 'n', at: '2026-01-01T00:00:00.000Z', outputs: 2, originalChars: 100, shownChars: 10, resume: null, wholeFile: null };
    recordSavings(home, entry, silentLogger);
    writeFileSync(join(savingsDir(home), 'broken.json'), '{"version":1,"source":"fork"');
    writeFileSync(join(savingsDir(home), 'other.json'), JSON.stringify({ ...entry, source: 'elsewhere' }));
    expect(listSavings(home)).toEqual([entry]);
  });
});

describe('summarizeSources', () => {
  const hookRecord = (answer: ObservationRecord['answer'], originalChars: number, compressedChars: number | null): ObservationRecord => ({
    version: 1, sessionId: 'a', toolUseId: `t-${originalChars}`, toolName: 'Bash', originalChars, originalLines: 10, answer, compressedChars,
    observation: null, observationChars: null, model: 'm', attempts: 1, lastError: null, createdAt: '', updatedAt: '',
  });
  const entry = (source: SavingsEntry['source'], originalChars: number, shownChars: number, resume: SavingsEntry['resume'] = null): SavingsEntry => ({
    version: 1, source, sessionId: 'a', newSessionId: null, at: '', outputs: 1, originalChars, shownChars, resume, wholeFile: resume,
  });

  it('shows every source and adds up the hook, forks and in-place rewrites, not backfill', () => {
    const { sources, total } = summarizeSources(
      [hookRecord('observation', 10_000, 500), hookRecord('none', 5_000, null), hookRecord('none', 7_000, null)],
      [entry('backfill', 8_000, 400), entry('fork', 8_000, 400, { beforeChars: 50_000, afterChars: 43_000 }), entry('fork', 2_000, 100), entry('in-place', 3_000, 300)],
    );
    expect(sources.map((s) => [s.source, s.runs, s.outputs, s.savedChars])).toEqual([
      ['hook', null, 1, 9_500], ['backfill', 1, 1, 7_600], ['fork', 2, 2, 9_500], ['in-place', 1, 1, 2_700],
    ]);
    expect(sources.find((s) => s.source === 'fork')).toMatchObject({ resumeSavedChars: 7_000 });
    expect(total).toMatchObject({ source: 'total', outputs: 4, originalChars: 23_000, shownChars: 1_300, savedChars: 21_700 });
  });
});
