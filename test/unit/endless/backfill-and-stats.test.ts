import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { RecallError, isRecallError } from '../../../src/core/errors.js';
import { silentLogger } from '../../../src/core/log.js';
import { backfillSession } from '../../../src/endless/backfill-session.js';
import { pendingRecords } from '../../../src/endless/complete-observation.js';
import type { EndlessSettings } from '../../../src/endless/endless-settings.js';
import { listRecords, type ObservationRecord } from '../../../src/endless/endless-store.js';
import type { ObserveFn } from '../../../src/endless/ollama-observe.js';
import { summarizeRecords } from '../../../src/endless/summarize-records.js';
import { useTempDirs } from '../../support/temp-dir.js';

const tempDir = useTempDirs();
const FIXTURE = fileURLToPath(new URL('../../fixtures/endless/session.jsonl', import.meta.url));
const settings: EndlessSettings = {
  enabled: true, minChars: 4000, readMinChars: 16_000, syncTimeoutMs: 60_000, denylist: [], keepRecent: 3, forkMinChars: 1000,
  ollama: { host: 'http://127.0.0.1:1', model: 'm', numCtx: 8192, timeoutMs: 5_000 },
};
const ok: ObserveFn = async () => ({ type: 'discovery', title: 't', subtitle: '', narrative: 'n', facts: [], concepts: [], files: [] });

function setup(observe: ObserveFn) {
  const dir = tempDir();
  const transcript = join(dir, 'session.jsonl');
  copyFileSync(FIXTURE, transcript);
  return { transcript, options: { home: join(dir, 'home'), settings, observe, now: () => Date.now(), logger: silentLogger, retry: false } };
}

describe('backfillSession', () => {
  it('creates an observation for every eligible result, recent ones included, and resumes where it stopped', async () => {
    let calls = 0;
    const failOnce: ObserveFn = async (r) => {
      calls += 1;
      if (calls === 2) throw new RecallError('LLM_BAD_OUTPUT', 'garbage');
      return ok(r);
    };
    const { transcript, options } = setup(failOnce);
    const first = await backfillSession(transcript, { ...options, observe: failOnce });
    expect(first).toMatchObject({ eligible: 5, created: 4, failed: 1, had: 0, stoppedBy: null });
    const second = await backfillSession(transcript, options);
    expect(second).toMatchObject({ eligible: 5, created: 1, had: 4, failed: 0 });
  });

  it('stops asking once Ollama is unreachable', async () => {
    let calls = 0;
    const { transcript, options } = setup(async () => {
      calls += 1;
      throw new RecallError('LLM_UNAVAILABLE', 'down');
    });
    const summary = await backfillSession(transcript, options);
    expect(calls).toBe(1);
    expect(summary).toMatchObject({ failed: 1, skipped: 4, stoppedBy: 'LLM_UNAVAILABLE: down' });
  });

  it('refuses to start without a model', async () => {
    const { transcript, options } = setup(ok);
    await expect(backfillSession(transcript, { ...options, settings: { ...settings, ollama: { ...settings.ollama, model: null } } })).rejects.toSatisfy((err) => isRecallError(err, 'LLM_NOT_CONFIGURED'));
  });

  it('leaves outputs that failed three times to --retry', async () => {
    const { transcript, options } = setup(async () => {
      throw new RecallError('LLM_TIMEOUT', 'slow');
    });
    for (let i = 0; i < 3; i += 1) await backfillSession(transcript, options);
    expect(pendingRecords(options.home)).toEqual([]);
    expect(await backfillSession(transcript, options)).toMatchObject({ skipped: 5, failed: 0 });
    expect(await backfillSession(transcript, { ...options, retry: true, observe: ok })).toMatchObject({ created: 5 });
    expect(listRecords(options.home).every((r) => r.observation !== null)).toBe(true);
  });
});

describe('summarizeRecords', () => {
  const record = (sessionId: string, answer: ObservationRecord['answer'], originalChars: number, compressedChars: number | null, observed: boolean): ObservationRecord => ({
    version: 1, sessionId, toolUseId: `${sessionId}-${originalChars}`, toolName: 'Bash', originalChars, originalLines: 10, answer, compressedChars,
    observation: observed ? { type: 'discovery', title: 't', subtitle: '', narrative: 'n', facts: [], concepts: [], files: [] } : null,
    observationChars: null, model: 'm', attempts: 1, lastError: null, createdAt: '', updatedAt: '',
  });

  it('adds up what was replaced and saved per session and overall', () => {
    const { sessions, total } = summarizeRecords([
      record('a', 'observation', 10_000, 500, true),
      record('a', 'reduction', 6_000, 2_000, false),
      record('a', 'none', 5_000, null, false),
      record('b', 'observation', 20_000, 1_000, true),
    ]);
    expect(sessions.map((s) => s.sessionId)).toEqual(['b', 'a']);
    expect(sessions[1]).toMatchObject({ outputs: 3, observations: 1, reductions: 1, untouched: 1, pending: 2, originalChars: 16_000, compressedChars: 2_500, savedChars: 13_500 });
    expect(total).toMatchObject({ outputs: 4, originalChars: 36_000, compressedChars: 3_500, savedChars: 32_500 });
    expect(total.savedShare).toBeCloseTo(32_500 / 36_000);
  });
});
