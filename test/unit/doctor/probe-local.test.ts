import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { statePaths } from '../../../src/core/state-paths.js';
import { probeAgentFound, probeConfig, probeQueue, probeSettingsFile, probeStateDir } from '../../../src/doctor/probe-local.js';
import { useTempDirs } from '../../support/temp-dir.js';

const tempDir = useTempDirs();

describe('probeStateDir', () => {
  it('reports a directory with its mode', () => {
    const dir = tempDir();
    chmodSync(dir, 0o750);
    expect(probeStateDir(dir)).toMatchObject({ state: 'directory', writable: true, mode: expect.any(Number) });
    expect((probeStateDir(dir) as { mode: number }).mode & 0o777).toBe(0o750);
  });

  it('reports a missing directory with its nearest existing parent', () => {
    const dir = tempDir();
    expect(probeStateDir(join(dir, 'a', 'b'))).toEqual({ path: join(dir, 'a', 'b'), state: 'missing', parent: dir, parentWritable: true });
  });

  it('reports a file where the directory should be', () => {
    const file = join(tempDir(), 'f');
    writeFileSync(file, '');
    expect(probeStateDir(file).state).toBe('not-directory');
  });
});

describe('probeAgentFound', () => {
  it('finds an agent by its settings folder or by its program on PATH, and not by a file that cannot run', () => {
    const home = tempDir();
    const bin = tempDir();
    const other = tempDir();
    expect(probeAgentFound(join(home, '.gemini'), 'gemini', `${other}${delimiter}${bin}`)).toBe(false);
    writeFileSync(join(bin, 'gemini'), '');
    chmodSync(join(bin, 'gemini'), 0o644);
    expect(probeAgentFound(join(home, '.gemini'), 'gemini', `${other}${delimiter}${bin}`)).toBe(false);
    chmodSync(join(bin, 'gemini'), 0o755);
    expect(probeAgentFound(join(home, '.gemini'), 'gemini', `${other}${delimiter}${bin}`)).toBe(true);
    expect(probeAgentFound(join(home, '.gemini'), 'gemini', undefined)).toBe(false);
    mkdirSync(join(home, '.gemini'));
    expect(probeAgentFound(join(home, '.gemini'), 'gemini', undefined)).toBe(true);
  });
});

describe('probeSettingsFile', () => {
  it('reads a settings file, reports a missing one, and flags one that is not JSON', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'good.json'), JSON.stringify({ hooks: {} }));
    writeFileSync(join(dir, 'bad.json'), '{ "hooks": ');
    expect(probeSettingsFile(join(dir, 'good.json'))).toMatchObject({ state: 'read', settings: { hooks: {} } });
    expect(probeSettingsFile(join(dir, 'none.json'))).toMatchObject({ state: 'missing' });
    expect(probeSettingsFile(join(dir, 'bad.json'))).toMatchObject({ state: 'invalid', message: expect.stringMatching(/bad\.json is not valid JSON/) });
  });
});

describe('probeConfig', () => {
  it('keeps going with defaults when config.json is not JSON, and reports it', () => {
    const home = tempDir();
    writeFileSync(join(home, 'config.json'), '{ nope');
    const { probe, config } = probeConfig({ RECALL_HOME: home, RECALL_OLLAMA_LLM_MODEL: 'm' });
    expect(probe.problems).toEqual([expect.objectContaining({ key: '(file)', message: expect.stringMatching(/not valid JSON/) })]);
    expect(probe.envOverrides).toEqual(['RECALL_OLLAMA_LLM_MODEL']);
    expect(config.ollama.llmModel).toBe('m');
  });

  it('reports bad keys and unknown keys from the file', () => {
    const home = tempDir();
    writeFileSync(join(home, 'config.json'), JSON.stringify({ dedupe: { threshold: 7 }, serch: { limit: 3 } }));
    const { probe, config } = probeConfig({ RECALL_HOME: home });
    expect(probe.problems.map((p) => p.key)).toEqual(['dedupe.threshold']);
    expect(probe.unknownKeys).toEqual(['serch']);
    expect(config.dedupe.threshold).toBe(0.85);
  });
});

describe('probeQueue', () => {
  it('counts the folders and takes the oldest pending time from the job', () => {
    const paths = statePaths(tempDir());
    for (const dir of [paths.spoolPending, paths.spoolFailed]) mkdirSync(dir, { recursive: true });
    const job = { version: 1, id: '01A', sessionId: null, transcriptPath: '/t.jsonl', cwd: null, agent: 'claude', reason: null, enqueuedAt: '2026-01-01T00:00:00.000Z', attempts: 0, notBefore: null, lastError: null };
    writeFileSync(join(paths.spoolPending, '01A.json'), JSON.stringify(job));
    writeFileSync(join(paths.spoolFailed, '01B.json'), JSON.stringify({ ...job, id: '01B' }));
    expect(probeQueue(paths)).toEqual({ pending: 1, processing: 0, failed: 1, oldestPendingAt: new Date('2026-01-01T00:00:00.000Z') });
  });
});
