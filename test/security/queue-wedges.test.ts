/**
 * No input wedges the capture queue: transcripts that are not regular files, a line too long to hold,
 * a job that outlives its time limit, a job whose worker keeps dying, and a drain that could not run.
 * The built CLI and hooks as real subprocesses, against a model double on 127.0.0.1.
 */
import { execFileSync } from 'node:child_process';
import { closeSync, openSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { statePaths } from '../../src/core/state-paths.js';
import { CLI, runCli, runHook, waitFor } from '../support/cli.js';
import { startHarness, claudeTranscript, type Harness } from '../support/harness.js';
import { ageLocks } from '../support/torture-sessions.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ embedder: 'hash' });
});
afterAll(async () => {
  await h.close();
});
beforeEach(() => {
  h.double.reset();
});

interface Status {
  queue: { pending: number; processing: number; failed: number };
  memories: number;
  failed: Array<{ id: string; error: string }>;
}

async function status(env: NodeJS.ProcessEnv): Promise<Status> {
  const result = await runCli(['status', '--json'], { env });
  expect(result.exitCode, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as Status;
}

function stateOnly(name: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { ...h.env, RECALL_HOME: join(h.root, name), RECALL_HOOK_SPAWN: '0', ...extra };
}

async function enqueue(env: NodeJS.ProcessEnv, session: string, transcriptPath: string): Promise<void> {
  const result = await runHook('session-end', { session_id: session, transcript_path: transcriptPath, cwd: h.project(session) }, { env });
  expect(result.exitCode).toBe(0);
}

describe('a transcript that is not a regular file', () => {
  it('is refused before it is opened: a FIFO fails its job at once and the next session is still captured', async () => {
    const env = stateOnly('fifo');
    const fifo = join(h.root, 'fifo.jsonl');
    execFileSync('mkfifo', [fifo]);
    await enqueue(env, 'fifo', fifo);
    await enqueue(env, 'after-fifo', h.session('after-fifo', ['You MUST use pnpm.']));

    // Opening a FIFO with no writer blocks for ever; the drain must finish well before the test gives up.
    const drained = await runCli(['drain', '--json'], { env, timeoutMs: 30_000 });
    expect(drained.exitCode).toBe(1);
    expect(JSON.parse(drained.stdout)).toMatchObject({ done: 1, failed: 1 });
    const s = await status(env);
    expect(s.queue).toMatchObject({ pending: 0, processing: 0, failed: 1 });
    expect(s.failed[0]?.error).toMatch(/TRANSCRIPT_UNREADABLE: transcript is a FIFO, not a regular file/);
    expect(s.memories).toBe(1);
  });
});

describe('a transcript line longer than transcript.maxLineBytes', () => {
  it('fails the job with the limit named instead of taking the worker down', async () => {
    const env = stateOnly('long-line', { RECALL_TRANSCRIPT_MAX_LINE_BYTES: '4096' });
    const file = join(h.root, 'long-line.jsonl');
    // A real session whose tool output is one 64 KiB line: 16 times the limit set here.
    writeFileSync(file, claudeTranscript('long-line', ['You MUST use pnpm.'], 64 * 1024));
    await enqueue(env, 'long-line', file);

    const drained = await runCli(['drain', '--json'], { env });
    expect(drained.exitCode, drained.stdout).toBe(1);
    expect(JSON.parse(drained.stdout)).toMatchObject({ done: 0, failed: 1 });
    const s = await status(env);
    expect(s.failed[0]?.error).toMatch(/transcript line 4 is longer than 4096 bytes \(transcript\.maxLineBytes\)/);
    expect(h.double.requestsTo('/api/chat')).toHaveLength(0);
  });

  it('leaves a transcript within the limit alone', async () => {
    const env = stateOnly('long-line-ok', { RECALL_TRANSCRIPT_MAX_LINE_BYTES: String(128 * 1024) });
    const file = join(h.root, 'long-line-ok.jsonl');
    writeFileSync(file, claudeTranscript('long-line-ok', ['You MUST use pnpm.'], 64 * 1024));
    await enqueue(env, 'long-line-ok', file);
    const drained = await runCli(['drain', '--json'], { env });
    expect(JSON.parse(drained.stdout)).toMatchObject({ done: 1, failed: 0 });
  });
});

describe('the job time limit', () => {
  it('stops a job that runs past queue.jobTimeoutMs, lets go of the queue, and sets the job aside the second time', async () => {
    const env = stateOnly('slow', { RECALL_JOB_TIMEOUT_MS: '1500', RECALL_OLLAMA_TIMEOUT_MS: '120000' });
    await enqueue(env, 'slow', h.session('slow', ['You MUST use pnpm.']));
    // A model that takes a minute: only the job time limit can end the job.
    h.double.configure({ delayMs: 60_000 });

    // The execa time-out (60 s) is the bound: the model's 60 s delay alone would pass it.
    const first = await runCli(['drain', '--json'], { env });
    expect(first.signal).toBe('SIGKILL');
    expect(JSON.parse(first.stdout)).toMatchObject({ retried: 1, timedOut: expect.stringMatching(/ran longer than 1500 ms \(queue\.jobTimeoutMs\)/) });
    expect((await status(env)).queue).toMatchObject({ pending: 1, processing: 0, failed: 0 });

    const second = await runCli(['drain', '--json'], { env });
    expect(second.signal).toBe('SIGKILL');
    expect(JSON.parse(second.stdout)).toMatchObject({ failed: 1 });
    const s = await status(env);
    expect(s.queue).toMatchObject({ pending: 0, processing: 0, failed: 1 });
    expect(s.failed[0]?.error).toMatch(/its worker stopped mid-job 2 times, so it was set aside/);

    // The queue is free: the next session is captured (with the default limit, ample on a busy machine).
    h.double.reset();
    const relaxed = { ...env, RECALL_JOB_TIMEOUT_MS: '' };
    await enqueue(relaxed, 'after-slow', h.session('after-slow', ['You MUST store money as integer cents.']));
    const third = await runCli(['drain', '--json'], { env: relaxed });
    expect(JSON.parse(third.stdout), third.stdout).toMatchObject({ done: 1 });
  }, 90_000);
});

describe('a job blocked in a read that never returns', () => {
  // /proc/kmsg is a regular file whose read blocks until the kernel logs something (root only): the read
  // sits in libuv's thread pool, where process.exit would wait for it for ever.
  const kmsg = '/proc/kmsg';
  it.skipIf(!canOpen(kmsg))('ends the process that runs it, the drain and the detached worker alike, and keeps the job', async () => {
    const env = stateOnly('kmsg', { RECALL_JOB_TIMEOUT_MS: '1500' });
    await enqueue(env, 'kmsg', kmsg);
    const drained = await runCli(['drain', '--json'], { env, timeoutMs: 45_000 });
    expect(drained.signal).toBe('SIGKILL');
    expect(JSON.parse(drained.stdout)).toMatchObject({ retried: 1, timedOut: expect.stringMatching(/ran longer than 1500 ms/) });
    expect((await status(env)).queue).toMatchObject({ pending: 1, processing: 0 });

    // The worker a hook starts: it too is gone once it has recorded the job, which is now set aside.
    const worker = await execa(process.execPath, [CLI, 'worker'], { env, extendEnv: false, reject: false, timeout: 45_000 });
    expect(worker.signal).toBe('SIGKILL');
    expect(worker.timedOut).toBe(false);
    const s = await status(env);
    expect(s.queue).toMatchObject({ pending: 0, processing: 0, failed: 1 });
    expect(s.failed[0]?.error).toMatch(/ran longer than 1500 ms \(queue\.jobTimeoutMs\)/);
  }, 120_000);
});

function canOpen(path: string): boolean {
  try {
    closeSync(openSync(path, 'r'));
    return true;
  } catch {
    return false;
  }
}

describe('a job whose worker dies mid-job', () => {
  it('is moved to failed with its reason after the second crash instead of taking down every worker', async () => {
    const env = stateOnly('crashes');
    await enqueue(env, 'crashes', h.session('crashes', ['You MUST use pnpm.']));
    h.double.configure({ delayMs: 60_000 });
    const paths = statePaths(env.RECALL_HOME!);
    for (let crash = 1; crash <= 2; crash += 1) {
      const before = h.double.requestsTo('/api/chat').length;
      const worker = execa(process.execPath, [CLI, 'worker'], { env: { ...env, RECALL_LOCK_STALE_MS: '5000' }, extendEnv: false, reject: false });
      await waitFor(() => (h.double.requestsTo('/api/chat').length > before ? true : undefined));
      worker.kill('SIGKILL');
      await worker;
      expect(readdirSync(paths.spoolProcessing)).toHaveLength(1);
      // What the stale time would do: the dead worker's queue lock no longer keeps the next one out.
      ageLocks(paths.home);
    }
    h.double.reset();
    const drained = await runCli(['drain', '--json'], { env });
    expect(drained.exitCode, drained.stdout).toBe(1);
    expect(JSON.parse(drained.stdout)).toMatchObject({ done: 0, failed: 1 });
    const s = await status(env);
    expect(s.queue).toMatchObject({ pending: 0, processing: 0, failed: 1 });
    expect(s.failed[0]?.error).toMatch(/the worker running it stopped mid-job \(crashed or was killed\); its worker stopped mid-job 2 times/);
  }, 120_000);
});

describe('recall drain', () => {
  it('exits non-zero, and says so, when another worker kept the queue so it could run nothing', async () => {
    const env = stateOnly('held', { RECALL_LOCK_STALE_MS: '5000' });
    await enqueue(env, 'held-a', h.session('held-a', ['You MUST use pnpm.']));
    await enqueue(env, 'held-b', h.session('held-b', ['You MUST store money as integer cents.']));
    h.double.configure({ delayMs: 60_000 });
    const worker = execa(process.execPath, [CLI, 'worker'], { env, extendEnv: false, reject: false });
    try {
      await waitFor(() => (h.double.requestsTo('/api/chat').length > 0 ? true : undefined));
      const drained = await runCli(['drain'], { env });
      expect(drained.exitCode).toBe(1);
      expect(drained.stdout).toMatch(/^could not run 2 queued job\(s\): another worker held the queue lock all the while this drain waited for it/);
    } finally {
      worker.kill('SIGKILL');
      await worker;
    }
  }, 90_000);
});
