import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { statePaths } from '../../src/core/state-paths.js';
import { Spool } from '../../src/queue/spool.js';
import { CLI, runCli, runHook, waitFor } from '../support/cli.js';
import { ageLocks } from '../support/torture-sessions.js';
import { startHarness, type Harness } from '../support/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});
beforeEach(() => {
  h.double.reset();
});

interface Status {
  queue: { pending: number; processing: number; failed: number; retrying: number };
  memories: number;
  waiting: string | null;
  failed: Array<{ id: string; error: string }>;
}

async function status(env: NodeJS.ProcessEnv): Promise<Status> {
  const result = await runCli(['status', '--json'], { env });
  expect(result.exitCode).toBe(0);
  return JSON.parse(result.stdout) as Status;
}

function queueOnly(name: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { ...h.env, RECALL_HOME: join(h.root, name), RECALL_HOOK_SPAWN: '0', ...extra };
}

async function enqueue(env: NodeJS.ProcessEnv, session: string, rules: string[], project = h.project(session)): Promise<void> {
  const result = await runHook('session-end', { session_id: session, transcript_path: h.session(session, rules), cwd: project }, { env });
  expect(result.exitCode).toBe(0);
}

describe('the capture queue', () => {
  it('keeps the job for a retry while Ollama is down, then captures it once Ollama is back', async () => {
    const env = queueOnly('down', { OLLAMA_HOST: 'http://127.0.0.1:9' });
    await enqueue(env, 'down', ['You MUST use pnpm.']);
    const drained = await runCli(['drain', '--json'], { env });
    expect(JSON.parse(drained.stdout)).toMatchObject({ done: 0, retried: 1 });
    const waiting = await status(env);
    expect(waiting.queue).toMatchObject({ pending: 1, retrying: 1, failed: 0 });
    expect(waiting.waiting).toMatch(/LLM_UNAVAILABLE/);

    const back = { ...env, OLLAMA_HOST: h.ollama.url };
    expect(JSON.parse((await runCli(['drain', '--json'], { env: back })).stdout)).toMatchObject({ done: 1 });
    expect(await status(back)).toMatchObject({ queue: { pending: 0, processing: 0, failed: 0 }, memories: 1 });
  });

  it('names the pull command when the model is not installed', async () => {
    const env = queueOnly('missing-model', { RECALL_OLLAMA_LLM_MODEL: 'qwen9:404b' });
    await enqueue(env, 'missing-model', ['You MUST use pnpm.']);
    await runCli(['drain'], { env });
    const pending = new Spool(statePaths(env.RECALL_HOME!)).list('pending');
    expect(pending[0]?.job?.lastError).toMatch(/ollama pull qwen9:404b/);
  });

  it('retries when the model answers garbage, and after the last attempt moves the job to failed until `recall retry`', async () => {
    const env = queueOnly('garbage', { RECALL_MAX_ATTEMPTS: '2' });
    h.double.configure({ garbage: true });
    await enqueue(env, 'garbage', ['You MUST use pnpm.']);
    await runCli(['drain'], { env });
    expect((await status(env)).queue).toMatchObject({ pending: 1, failed: 0 });
    await runCli(['drain'], { env });
    const failed = await status(env);
    expect(failed.queue).toMatchObject({ pending: 0, failed: 1 });
    expect(failed.failed[0]!.error).toMatch(/LLM_BAD_OUTPUT/);

    h.double.reset();
    const retry = await runCli(['retry', '--no-start', '--json'], { env });
    expect(JSON.parse(retry.stdout)).toEqual({ moved: 1, workerStarted: false });
    expect(JSON.parse((await runCli(['drain', '--json'], { env })).stdout)).toMatchObject({ done: 1 });
    expect((await status(env)).memories).toBe(1);
  });

  it('fails a job at once when its transcript is a directory', async () => {
    const env = queueOnly('dir');
    const dir = join(h.root, 'not-a-file.jsonl');
    mkdirSync(dir, { recursive: true });
    await runHook('session-end', { session_id: 'dir', transcript_path: dir, cwd: h.root }, { env });
    await runCli(['drain'], { env });
    const s = await status(env);
    expect(s.queue).toMatchObject({ pending: 0, failed: 1 });
    expect(s.failed[0]!.error).toMatch(/TRANSCRIPT_UNREADABLE/);
  });

  it('lets jobs wait, and says why, while no extraction model is configured', async () => {
    const env = queueOnly('no-model', { RECALL_OLLAMA_LLM_MODEL: '' });
    await enqueue(env, 'no-model', ['You MUST use pnpm.']);
    const drained = await runCli(['drain', '--json'], { env });
    expect(JSON.parse(drained.stdout)).toMatchObject({ waiting: true, done: 0 });
    const s = await status(env);
    expect(s.queue).toMatchObject({ pending: 1, failed: 0 });
    expect(s.waiting).toMatch(/RECALL_OLLAMA_LLM_MODEL/);
    expect(new Spool(statePaths(env.RECALL_HOME!)).list('pending')[0]?.job?.attempts).toBe(0);
  });

  it('loses nothing when the worker is SIGKILLed mid-job: the job runs again and stores no duplicate', async () => {
    const env = queueOnly('killed');
    await enqueue(env, 'killed', ['You MUST use pnpm, never npm.']);
    h.double.configure({ delayMs: 60_000 });
    const worker = execa(process.execPath, [CLI, 'worker'], { env, extendEnv: false, reject: false });
    await waitFor(() => (h.double.requestsTo('/api/chat').length > 0 ? true : undefined));
    worker.kill('SIGKILL');
    await worker;
    const paths = statePaths(env.RECALL_HOME!);
    expect(readdirSync(paths.spoolProcessing)).toHaveLength(1);

    h.double.reset();
    // drain waits for the dead worker's lock to go stale, recovers the job and runs it.
    const drained = await runCli(['drain', '--json'], { env });
    expect(JSON.parse(drained.stdout)).toMatchObject({ done: 1 });
    expect(await status(env)).toMatchObject({ queue: { pending: 0, processing: 0, failed: 0 }, memories: 1 });
  });

  it('runs a job once when its worker stalls past the lock stale time: the worker that takes the lock leaves that job to it', async () => {
    // A model call that outlives the stop: with the default 10 s client time-out, a stop longer than that
    // under load would fail the call (a retry, not a loss) and the job would not be in the history yet.
    const env = queueOnly('stalled', { RECALL_OLLAMA_TIMEOUT_MS: '600000' });
    await enqueue(env, 'stalled-a', ['You MUST use pnpm, never npm.']);
    h.double.configure({ delayMs: 2_000 });
    const stalled = execa(process.execPath, [CLI, 'worker'], { env, extendEnv: false, reject: false });
    await waitFor(() => (h.double.requestsTo('/api/chat').length > 0 ? true : undefined));
    // Starved of CPU, as a niced worker is under load: its lock is not refreshed for longer than the 5 s stale time.
    stalled.kill('SIGSTOP');
    await enqueue(env, 'stalled-b', ['You MUST write migrations for every schema change.']);
    const paths = statePaths(env.RECALL_HOME!);
    // What the stale time does, without waiting for it: the stopped worker's lock looks abandoned.
    ageLocks(paths.home);
    const [claim] = readdirSync(paths.spoolProcessing);
    expect(claim).toMatch(new RegExp(`@${stalled.pid}-\\d+\\.json$`));

    const drained = await runCli(['drain', '--json'], { env });
    // The drain took over the stale lock and ran only the job nobody held.
    expect(JSON.parse(drained.stdout)).toMatchObject({ done: 1, lockLost: null });
    expect(readdirSync(paths.spoolProcessing)).toEqual([claim]);

    stalled.kill('SIGCONT');
    const finished = await stalled;
    // It finished the job in hand, then stopped: the queue lock it held was taken over.
    expect(finished.exitCode).toBe(75);
    const sessions = readFileSync(paths.historyFile, 'utf8').trim().split('\n').map((line) => (JSON.parse(line) as { sessionId: string }).sessionId);
    expect(sessions.sort()).toEqual(['stalled-a', 'stalled-b']);
    expect(await status(env)).toMatchObject({ queue: { pending: 0, processing: 0, failed: 0 }, memories: 2 });
  }, 180_000);

  it('stores no duplicate when a job that had already stored its memories runs again', async () => {
    const env = queueOnly('rerun');
    const project = h.project('rerun');
    await enqueue(env, 'rerun', ['You MUST use pnpm, never npm.'], project);
    const spool = new Spool(statePaths(env.RECALL_HOME!));
    const [queued] = spool.list('pending');
    // First run completes; put the same job (with the model's answer cached, as a crash after storing leaves it) back.
    await runCli(['drain'], { env });
    const cached = { ...queued!.job!, extracted: [{ content: 'You MUST use pnpm, never npm.', type: 'golden_rule', importance: 1 }] };
    mkdirSync(statePaths(env.RECALL_HOME!).spoolProcessing, { recursive: true });
    writeFileSync(join(statePaths(env.RECALL_HOME!).spoolProcessing, `${cached.id}.json`), JSON.stringify(cached));
    h.double.requests.length = 0;
    expect(JSON.parse((await runCli(['drain', '--json'], { env })).stdout)).toMatchObject({ done: 1 });
    expect(h.double.requestsTo('/api/chat')).toHaveLength(0);
    const list = JSON.parse((await runCli(['list', '--json'], { env })).stdout) as Array<{ seen_count: number }>;
    expect(list).toHaveLength(1);
    expect(list[0]!.seen_count).toBe(1);
  });

  it('sets a damaged job file aside and still runs the others', async () => {
    const env = queueOnly('damaged');
    await enqueue(env, 'damaged', ['You MUST use pnpm.']);
    writeFileSync(join(statePaths(env.RECALL_HOME!).spoolPending, '000000000-damaged.json'), '{"version":1');
    expect(JSON.parse((await runCli(['drain', '--json'], { env })).stdout)).toMatchObject({ done: 1 });
    expect((await status(env)).queue).toMatchObject({ pending: 0, failed: 1 });
  });
});

describe('concurrent session ends', () => {
  it('captures 20 sessions ended at once, each exactly once', async () => {
    const env = { ...h.env, RECALL_HOME: join(h.root, 'twenty') };
    const sessions = Array.from({ length: 20 }, (_, i) => `burst-${i}`);
    const payloads = sessions.map((name) => ({
      session_id: name,
      transcript_path: h.session(name, [`You MUST run service ${name.split('-')[1]} tests before every release.`]),
      cwd: h.project(name),
    }));
    const results = await Promise.all(payloads.map((payload) => runHook('session-end', payload, { env })));
    expect(results.every((r) => r.exitCode === 0 && r.stdout === '{}\n')).toBe(true);

    const paths = statePaths(env.RECALL_HOME!);
    const history = await waitFor(
      () => {
        if (!existsSync(paths.historyFile)) return undefined;
        const lines = readFileSync(paths.historyFile, 'utf8').trim().split('\n');
        return lines.length >= 20 && new Spool(paths).counts().pending === 0 ? lines : undefined;
      },
      // One worker runs the 20 captures in turn: minutes on a loaded machine.
      { timeoutMs: 480_000 },
    );
    const entries = history.map((line) => JSON.parse(line) as { sessionId: string; inserted: number });
    expect(entries.map((e) => e.sessionId).sort()).toEqual([...sessions].sort());
    expect(entries.every((e) => e.inserted === 1)).toBe(true);
    const s = await status(env);
    expect(s.queue).toMatchObject({ pending: 0, processing: 0, failed: 0 });
    expect(s.memories).toBe(20);
  }, 540_000);
});
