import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importClosure } from '../support/import-graph.js';
import { statePaths } from '../../src/core/state-paths.js';
import { runCli, runHook, waitFor } from '../support/cli.js';
import { startHarness, type Harness } from '../support/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

function pendingJobs(home: string): Array<Record<string, unknown>> {
  const dir = statePaths(home).spoolPending;
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .map((name) => JSON.parse(readFileSync(join(dir, name), 'utf8')) as Record<string, unknown>);
}

describe('recall hook session-end', () => {
  it('queues the transcript as a private job file and prints one JSON object', async () => {
    const env = { ...h.env, RECALL_HOME: join(h.root, 'queue-only'), RECALL_HOOK_SPAWN: '0' };
    const result = await runHook(
      'session-end',
      { session_id: 's-1', transcript_path: '/tmp/s-1.jsonl', cwd: '/tmp', hook_event_name: 'SessionEnd', reason: 'clear', extra: 1 },
      { env },
    );
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe('{}\n');
    expect(result.stderr).toBe('');
    const jobs = pendingJobs(env.RECALL_HOME!);
    expect(jobs).toHaveLength(1);
    expect(jobs[0]).toMatchObject({ sessionId: 's-1', transcriptPath: '/tmp/s-1.jsonl', cwd: '/tmp', reason: 'clear', attempts: 0 });
    const dir = statePaths(env.RECALL_HOME!).spoolPending;
    const [file] = readdirSync(dir);
    expect(statSync(join(dir, file!)).mode & 0o777).toBe(0o600);
    expect(statSync(env.RECALL_HOME!).mode & 0o777).toBe(0o700);
  });

  it('accepts camelCase fields', async () => {
    const env = { ...h.env, RECALL_HOME: join(h.root, 'camel'), RECALL_HOOK_SPAWN: '0' };
    await runHook('session-end', { sessionId: 's-2', transcriptPath: '/tmp/s-2.jsonl' }, { env });
    expect(pendingJobs(env.RECALL_HOME!)[0]).toMatchObject({ sessionId: 's-2', transcriptPath: '/tmp/s-2.jsonl' });
  });

  const badInputs: Array<[string, string]> = [
    ['empty stdin', ''],
    ['text that is not JSON', 'hello'],
    ['JSON that is not an object', '[1,2,3]'],
    ['fields of the wrong type', JSON.stringify({ session_id: 1, transcript_path: { a: 1 } })],
    ['a payload without transcript_path', JSON.stringify({ session_id: 'x' })],
    ['a 50 MB stdin', `{"session_id":"big","pad":"${'x'.repeat(50 * 1024 * 1024)}"}`],
  ];
  it.each(badInputs)('exits 0 with {} and queues nothing for %s', async (label, input) => {
    const home = join(h.root, `bad-${label.replace(/\W+/g, '-')}`);
    const started = Date.now();
    const result = await runHook('session-end', input, { env: { ...h.env, RECALL_HOME: home } });
    expect(Date.now() - started).toBeLessThan(1500); // the SessionEnd budget Claude Code gives all hooks together
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({});
    expect(pendingJobs(home)).toEqual([]);
    expect(readFileSync(statePaths(home).logFile, 'utf8')).toMatch(/ignored SessionEnd payload|no transcript_path/);
  });

  it('answers {} for an unknown hook name', async () => {
    const result = await runHook('no-such-event', {}, { env: h.env });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe('{}\n');
  });

  it('exits 0 with {} when the state dir cannot be created', async () => {
    const home = join(h.project('readonly-parent'), 'package.json', 'home'); // a path under a file
    const result = await runHook('session-end', { session_id: 'x', transcript_path: '/t.jsonl' }, { env: { ...h.env, RECALL_HOME: home } });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe('{}\n');
  });

  it('hands the job to a detached worker that captures the session', async () => {
    const project = h.project('hooked');
    const transcript = h.session('hooked', ['You MUST use pnpm, never npm.']);
    const env = { ...h.env, RECALL_HOME: join(h.root, 'spawned') };
    const result = await runHook('session-end', { session_id: 'hooked', transcript_path: transcript, cwd: project }, { env });
    expect(result.stdout).toBe('{}\n');
    const memories = await waitFor(async () => {
      const list = await runCli(['list', '--json'], { env });
      const parsed = list.exitCode === 0 ? (JSON.parse(list.stdout) as Array<{ content: string; session_id: string }>) : [];
      return parsed.length > 0 ? parsed : undefined;
    });
    expect(memories.map((m) => m.content)).toContain('You MUST use pnpm, never npm.');
    expect(memories[0]!.session_id).toBe('hooked');
    await waitFor(() => (pendingJobs(env.RECALL_HOME).length === 0 ? true : undefined));
  });
});

describe('the hook path', () => {
  it('imports node built-ins and its own small modules only', () => {
    const dist = resolve(dirname(fileURLToPath(import.meta.url)), '../../dist');
    const { files, packages } = importClosure(join(dist, 'hook/run-hook.js'), { followDynamic: true });
    const seen = new Set(files);
    const foreign = packages.filter((name) => !name.startsWith('node:'));
    expect(seen.size).toBeGreaterThan(5);
    expect(foreign).toEqual([]);
    expect([...seen].filter((f) => /\/dist\/(adapters|worker|cli|store|embed|extract)\//.test(f))).toEqual([]);
  });
});
