import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importClosure } from '../support/import-graph.js';
import { statePaths } from '../../src/core/state-paths.js';
import { enqueueFallback, fallbackPendingDir } from '../../src/queue/fallback-spool.js';
import { newCaptureJob } from '../../src/queue/job.js';
import { WORKER_PRIORITY } from '../../src/hook/spawn-worker.js';
import { BIN, CLI, runCli, runHook, waitFor } from '../support/cli.js';
import { startHarness, type Harness } from '../support/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

function fallbackJobs(home: string, tmp: string): Array<Record<string, unknown>> {
  const dir = fallbackPendingDir(tmp, home);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .map((name) => JSON.parse(readFileSync(join(dir, name), 'utf8')) as Record<string, unknown>);
}

function failedJobs(home: string): Array<Record<string, unknown>> {
  return jobsIn(statePaths(home).spoolFailed);
}

function pendingJobs(home: string): Array<Record<string, unknown>> {
  return jobsIn(statePaths(home).spoolPending);
}

function jobsIn(dir: string): Array<Record<string, unknown>> {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .map((name) => JSON.parse(readFileSync(join(dir, name), 'utf8')) as Record<string, unknown>);
}

/**
 * Runs node with `file` on its stdin as a shell's `< file` hands it: the descriptor itself (execa's
 * inputFile pipes the file's content instead).
 */
function runWithFileOnStdin(args: readonly string[], env: NodeJS.ProcessEnv, file: string): Promise<{ exitCode: number; stdout: string }> {
  const fd = openSync(file, 'r');
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, args, { env, stdio: [fd, 'pipe', 'inherit'] });
    closeSync(fd);
    let stdout = '';
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolvePromise({ exitCode: code ?? -1, stdout: stdout.replace(/\n$/, '') }));
  });
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

  it('prints the hook command\'s help for --help, and queues nothing', async () => {
    const env = { ...h.env, RECALL_HOME: join(h.root, 'hook-help'), RECALL_HOOK_SPAWN: '0' };
    for (const args of [['hook', 'session-end', '--help'], ['hook', '--help'], ['hook', 'session-start', '-h']]) {
      const result = await runCli(args, { env });
      expect(result.exitCode).toBe(0);
      expect(result.stdout).toMatch(/^Usage: recall hook \[options\] <event>/);
    }
    expect(pendingJobs(env.RECALL_HOME!)).toEqual([]);
  });

  it('accepts camelCase fields', async () => {
    const env = { ...h.env, RECALL_HOME: join(h.root, 'camel'), RECALL_HOOK_SPAWN: '0' };
    await runHook('session-end', { sessionId: 's-2', transcriptPath: '/tmp/s-2.jsonl' }, { env });
    expect(pendingJobs(env.RECALL_HOME!)[0]).toMatchObject({ sessionId: 's-2', transcriptPath: '/tmp/s-2.jsonl' });
  });

  const badInputs: Array<[string, string, RegExp]> = [
    ['empty stdin', '', /empty stdin/],
    ['text that is not JSON', 'hello', /not JSON/],
    ['JSON that is not an object', '[1,2,3]', /not an object/],
    ['fields of the wrong type', JSON.stringify({ session_id: 1, transcript_path: { a: 1 } }), /no transcript_path/],
    ['a payload without transcript_path', JSON.stringify({ session_id: 'x' }), /no transcript_path/],
    ['a 50 MB stdin', `{"session_id":"big","pad":"${'x'.repeat(50 * 1024 * 1024)}"}`, /not JSON.*cut at the size cap/],
  ];
  it.each(badInputs)('exits 0 with {}, runs nothing, and keeps %s in the failed jobs with its reason', async (label, input, reason) => {
    const home = join(h.root, `bad-${label.replace(/\W+/g, '-')}`);
    const result = await runHook('session-end', input, { env: { ...h.env, RECALL_HOME: home } });
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({});
    expect(pendingJobs(home)).toEqual([]);
    const [kept, ...more] = failedJobs(home);
    expect(more).toEqual([]);
    expect(kept?.lastError).toMatch(/^the SessionEnd hook could not read its payload: /);
    expect(kept?.lastError).toMatch(reason);
    expect(input.startsWith(String(kept?.payload))).toBe(true);
    expect(readFileSync(statePaths(home).logFile, 'utf8')).toMatch(/unreadable SessionEnd payload kept in the failed jobs/);
  });

  it('queues a payload cut at the size cap from the fields it holds', async () => {
    const home = join(h.root, 'cut-payload');
    const input = `{"session_id":"cut","transcript_path":"/tmp/cut.jsonl","cwd":"/tmp","pad":"${'x'.repeat(5 * 1024 * 1024)}"}`;
    const result = await runHook('session-end', input, { env: { ...h.env, RECALL_HOME: home, RECALL_HOOK_SPAWN: '0' } });
    expect(result.exitCode).toBe(0);
    expect(pendingJobs(home)).toMatchObject([{ sessionId: 'cut', transcriptPath: '/tmp/cut.jsonl', cwd: '/tmp' }]);
  });

  // The bin is what `recall install` writes; main.js is what older installs and the plugin's first versions name.
  const ENTRIES = [['the bin', BIN], ['main.js', CLI]] as const;

  it.each(ENTRIES)('reads a payload handed as a file on stdin, however slowly the hook gets the CPU (%s)', async (label, entry) => {
    const home = join(h.root, `stdin-file-${label.replace(/\W+/g, '-')}`);
    const payloadFile = join(h.root, `stdin-file-${label.replace(/\W+/g, '-')}.json`);
    writeFileSync(payloadFile, JSON.stringify({ session_id: 'from-file', transcript_path: '/tmp/from-file.jsonl' }));
    const result = await runWithFileOnStdin([entry, 'hook', 'session-end'], { ...h.env, RECALL_HOME: home, RECALL_HOOK_SPAWN: '0' }, payloadFile);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe('{}');
    expect(pendingJobs(home)).toMatchObject([{ sessionId: 'from-file', transcriptPath: '/tmp/from-file.jsonl' }]);
  });

  it.each(ENTRIES)('returns once a whole payload has come, even when the agent keeps stdin open (%s)', async (label, entry) => {
    const home = join(h.root, `stdin-open-${label.replace(/\W+/g, '-')}`);
    const hook = execa(process.execPath, [entry, 'hook', 'session-end'], { env: { ...h.env, RECALL_HOME: home, RECALL_HOOK_SPAWN: '0' }, extendEnv: false, reject: false, stdin: 'pipe' });
    hook.stdin?.write(JSON.stringify({ session_id: 'open', transcript_path: '/tmp/open.jsonl' }));
    // Never closed: only the payload's own end tells the hook it has everything.
    const result = await hook;
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe('{}');
    expect(pendingJobs(home)).toMatchObject([{ sessionId: 'open' }]);
  });

  it('ends a stdin that stays open and silent after part of a payload, and queues the session from what came', async () => {
    const home = join(h.root, 'stdin-silent');
    const hook = execa(process.execPath, [BIN, 'hook', 'session-end'], { env: { ...h.env, RECALL_HOME: home, RECALL_HOOK_SPAWN: '0' }, extendEnv: false, reject: false, stdin: 'pipe' });
    // No closing brace and never closed: only the idle timer can end this input.
    hook.stdin?.write('{"session_id":"silent","transcript_path":"/tmp/silent.jsonl"');
    const result = await hook;
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe('{}');
    expect(pendingJobs(home)).toMatchObject([{ sessionId: 'silent', transcriptPath: '/tmp/silent.jsonl' }]);
    expect(readFileSync(statePaths(home).logFile, 'utf8')).toMatch(/stdin stayed open without ending/);
  });

  it('answers {} for an unknown hook name', async () => {
    const result = await runHook('no-such-event', {}, { env: h.env });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe('{}\n');
  });

  it('exits 0 with {} and queues in the fallback spool when the state dir cannot be created', async () => {
    const home = join(h.project('readonly-parent'), 'package.json', 'home'); // a path under a file
    const tmp = mkdtempSync(join(h.root, 'tmp-'));
    const result = await runHook('session-end', { session_id: 'x', transcript_path: '/t.jsonl' }, { env: { ...h.env, RECALL_HOME: home, TMPDIR: tmp } });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe('{}\n');
    expect(fallbackJobs(home, tmp).map((j) => j.sessionId)).toEqual(['x']);
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

  it.skipIf(process.platform === 'win32')('starts the worker below the normal CPU priority, and the worker still captures the session', async () => {
    const project = h.project('niced');
    const transcript = h.session('niced', ['You MUST keep money in integer cents.']);
    const env = { ...h.env, RECALL_HOME: join(h.root, 'niced-home') };
    const result = await runHook('session-end', { session_id: 'niced', transcript_path: transcript, cwd: project }, { env });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe('{}\n');
    const finished = await waitFor(() => {
      const log = existsSync(statePaths(env.RECALL_HOME).logFile) ? readFileSync(statePaths(env.RECALL_HOME).logFile, 'utf8') : '';
      const lines = log.trim().split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>);
      return lines.find((line) => line.component === 'worker' && line.msg === 'worker finished');
    });
    expect(finished).toMatchObject({ priority: WORKER_PRIORITY, done: 1, failed: 0 });
    const list = await runCli(['list', '--json'], { env });
    expect((JSON.parse(list.stdout) as Array<{ content: string }>).map((m) => m.content)).toContain('You MUST keep money in integer cents.');
  });
});

describe('a state dir that cannot take the job file', () => {
  // The main spool is unusable (a file where spool/ should be): the same path through the code as a
  // full disk (ENOSPC), a quota or a read-only file system; the torture suite fills a real disk.
  function blockedWorld(name: string) {
    const project = h.project(name);
    const transcript = h.session(name, [`You MUST keep the ${name} rule.`]);
    const home = join(h.root, `${name}-home`);
    mkdirSync(home, { recursive: true, mode: 0o700 });
    writeFileSync(join(home, 'spool'), 'not a folder');
    const tmp = mkdtempSync(join(h.root, 'tmp-'));
    return { project, transcript, home, tmp, env: { ...h.env, RECALL_HOME: home, TMPDIR: tmp } };
  }

  it('queues the session in the fallback spool, prints {}, exits 0 and still starts the worker', async () => {
    const w = blockedWorld('blocked');
    const result = await runHook('session-end', { session_id: 'blocked', transcript_path: w.transcript, cwd: w.project }, { env: w.env });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe('{}\n');
    expect(result.stderr).toBe('');
    const dir = fallbackPendingDir(w.tmp, w.home);
    expect(fallbackJobs(w.home, w.tmp)).toMatchObject([{ sessionId: 'blocked', transcriptPath: w.transcript, attempts: 0 }]);
    expect(statSync(join(dir, readdirSync(dir)[0]!)).mode & 0o777).toBe(0o600);
    expect(statSync(join(w.tmp, `recall-${process.getuid!()}`)).mode & 0o777).toBe(0o700);
    // The worker the hook started tried to adopt the job and found the state dir still unusable.
    const log = await waitFor(() => {
      const text = existsSync(statePaths(w.home).logFile) ? readFileSync(statePaths(w.home).logFile, 'utf8') : '';
      return text.includes('jobs wait in the fallback spool') ? text : undefined;
    });
    expect(log).toMatch(/queued in the fallback spool/);
    expect(fallbackJobs(w.home, w.tmp)).toHaveLength(1);
  });

  it('captures the session exactly once after the state dir is usable again', async () => {
    const w = blockedWorld('recovered');
    const env = { ...w.env, RECALL_HOOK_SPAWN: '0' };
    await runHook('session-end', { session_id: 'recovered', transcript_path: w.transcript, cwd: w.project }, { env });
    expect(fallbackJobs(w.home, w.tmp)).toHaveLength(1);

    rmSync(join(w.home, 'spool'));
    const status = await runCli(['status', '--json'], { env });
    expect(JSON.parse(status.stdout)).toMatchObject({ queue: { pending: 1, fallback: 0 }, fallback: null });
    expect(fallbackJobs(w.home, w.tmp)).toEqual([]);
    const drained = await runCli(['drain', '--json'], { env });
    expect(drained.exitCode, drained.stderr).toBe(0);
    expect(JSON.parse(drained.stdout)).toMatchObject({ done: 1, inFallback: 0 });
    const list = JSON.parse((await runCli(['list', '--json'], { env })).stdout) as Array<{ content: string; session_id: string }>;
    expect(list.filter((m) => m.content === 'You MUST keep the recovered rule.')).toHaveLength(1);
    expect(pendingJobs(w.home)).toEqual([]);
  });

  it('has the next SessionStart start a worker that adopts and captures the job once there is room', async () => {
    const w = blockedWorld('next-start');
    await runHook('session-end', { session_id: 'next-start', transcript_path: w.transcript, cwd: w.project }, { env: { ...w.env, RECALL_HOOK_SPAWN: '0' } });
    expect(fallbackJobs(w.home, w.tmp)).toHaveLength(1);
    rmSync(join(w.home, 'spool'));
    const start = await runHook('session-start', { session_id: 'later', cwd: w.project, hook_event_name: 'SessionStart', source: 'startup' }, { env: w.env });
    expect(start.exitCode).toBe(0);
    const memories = await waitFor(async () => {
      const list = await runCli(['list', '--json'], { env: w.env });
      const parsed = list.exitCode === 0 ? (JSON.parse(list.stdout) as Array<{ content: string }>) : [];
      return parsed.length > 0 ? parsed : undefined;
    });
    expect(memories.map((m) => m.content)).toEqual(['You MUST keep the next-start rule.']);
    expect(fallbackJobs(w.home, w.tmp)).toEqual([]);
  });

  it('moves each fallback job into the spool exactly once with six adopters at the same time, across file systems', async () => {
    // The fallback on another file system when there is one (/dev/shm), as on a real machine: copy + fsync + rename.
    const shm = existsSync('/dev/shm') && statSync('/dev/shm').dev !== statSync(h.root).dev;
    const root = mkdtempSync(shm ? '/dev/shm/recall-race-' : join(h.root, 'tmp-'));
    try {
      const home = join(h.root, 'racing-home');
      const ids = Array.from({ length: 300 }, (_, i) => {
        const job = newCaptureJob({ sessionId: `race-${i}`, transcriptPath: `/nowhere/${i}.jsonl`, cwd: null, agent: 'claude', reason: null });
        enqueueFallback(job, home, [root]);
        return job.id;
      });
      const module = join(dirname(CLI), '..', 'queue', 'adopt-fallback.js');
      const code = `const { adoptFallbackJobs } = await import(${JSON.stringify(module)});
        console.log(JSON.stringify(adoptFallbackJobs(${JSON.stringify(home)}, ${JSON.stringify(statePaths(home).spoolPending)}, { roots: [${JSON.stringify(root)}] })));`;
      const reports = await Promise.all(
        Array.from({ length: 6 }, () => execa(process.execPath, ['--input-type=module', '-e', code]).then((r) => JSON.parse(r.stdout) as { adopted: number; left: number })),
      );
      expect(reports.reduce((sum, r) => sum + r.adopted, 0)).toBe(300);
      expect(reports.every((r) => r.left === 0)).toBe(true);
      const pending = readdirSync(statePaths(home).spoolPending);
      expect(pending.filter((name) => name.startsWith('.'))).toEqual([]);
      expect(pending.map((name) => name.replace(/\.json$/, '')).sort()).toEqual([...ids].sort());
      expect(fallbackJobs(home, root)).toEqual([]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('the hook path', () => {
  const dist = resolve(dirname(fileURLToPath(import.meta.url)), '../../dist');
  const src = resolve(dirname(fileURLToPath(import.meta.url)), '../../src');
  const PROBE = resolve(dirname(fileURLToPath(import.meta.url)), '../support/module-load-probe.cjs');

  it('imports node built-ins and its own small modules only', () => {
    const { files, packages } = importClosure(join(src, 'hook/run-hook.ts'), { followDynamic: true });
    const seen = new Set(files);
    const foreign = packages.filter((name) => !name.startsWith('node:'));
    expect(seen.has(join(src, 'core/atomic-write.ts'))).toBe(true);
    expect(foreign).toEqual([]);
    expect([...seen].filter((f) => /\/src\/(worker|cli|store|embed|extract)\//.test(f))).toEqual([]);
    // Endless Mode's PostToolUse calls Ollama through recall's one client, which needs no package.
    const adapters = [...seen].filter((f) => f.includes('/src/adapters/')).map((f) => f.slice(src.length + 1)).sort();
    expect(adapters).toEqual(['adapters/http-text-request.ts', 'adapters/ollama-http-client.ts', 'adapters/translate-ollama-error.ts']);
  });

  it('does not load node:crypto on the SessionEnd path, and node:child_process only when it spawns (each costs a few ms of every start)', () => {
    const { packages } = importClosure(join(src, 'hook/run-hook.ts'), { followDynamic: false });
    expect(packages).not.toContain('node:crypto');
    expect(packages).not.toContain('node:child_process');
    expect(importClosure(join(src, 'hook/spawn-worker.ts'), { followDynamic: true }).packages).toContain('node:child_process');
  });

  /** Runs the installed entry's SessionEnd hook under the module-load probe; what it loaded, and the job it queued. */
  async function probeSessionEnd(name: string, stdin: 'pipe' | 'file'): Promise<{ builtins: string[]; required: string[]; stdout: string; jobs: number }> {
    const root = join(h.root, `probe-${name}`);
    mkdirSync(root, { recursive: true });
    const probe = join(root, 'loaded.json');
    const payload = JSON.stringify({ session_id: `probe-${name}`, transcript_path: '/tmp/probe.jsonl', cwd: '/tmp', hook_event_name: 'SessionEnd' });
    const payloadFile = join(root, 'payload.json');
    writeFileSync(payloadFile, payload);
    const env = { ...h.env, RECALL_HOME: join(root, 'home'), RECALL_HOOK_SPAWN: '0', RECALL_TEST_MODULE_PROBE: probe };
    const args = ['--require', PROBE, BIN, 'hook', 'session-end'];
    const result = stdin === 'file' ? await runWithFileOnStdin(args, env, payloadFile) : await execa(process.execPath, args, { env, extendEnv: false, reject: false, input: payload });
    expect(result.exitCode).toBe(0);
    const loaded = JSON.parse(readFileSync(probe, 'utf8')) as { builtins: string[]; required: string[] };
    return { ...loaded, stdout: result.stdout, jobs: pendingJobs(env.RECALL_HOME).length };
  }

  it.each(['pipe', 'file'] as const)('runs the installed SessionEnd hook (stdin from a %s) from two CommonJS files, without the ESM loader', async (stdin) => {
    const { builtins, required, stdout, jobs } = await probeSessionEnd(stdin, stdin);
    expect(stdout).toBe('{}');
    expect(jobs).toBe(1);
    // The bin and the runner (scripts/bundle-hooks.mjs), besides the probe itself.
    expect(required.filter((file) => file !== PROBE)).toEqual([BIN, join(dist, 'hook/run-hook.cjs')]);
    const heavy = ['NativeModule internal/modules/esm/loader', 'NativeModule child_process', 'NativeModule crypto'];
    expect(builtins.filter((name) => heavy.includes(name))).toEqual([]);
  });

  it('makes no stream for a payload handed as a file, nor for its one line of output', async () => {
    // process.stdin / process.stdout would make streams (loading node's net and stream modules, a few ms of every start).
    const { builtins, jobs } = await probeSessionEnd('no-streams', 'file');
    expect(jobs).toBe(1);
    expect(builtins.filter((name) => ['NativeModule net', 'NativeModule stream', 'NativeModule internal/fs/streams'].includes(name))).toEqual([]);
  });

  it('starts a SessionEnd hook from one built file: the runner with the handler and its small modules folded in', () => {
    // scripts/bundle-hooks.mjs: the ESM loader costs a few ms per file, so the build folds them into one.
    const runner = importClosure(join(dist, 'hook/run-hook.js'), { followDynamic: false });
    expect(runner.files).toEqual([join(dist, 'hook/run-hook.js')]);
    expect(runner.packages).not.toContain('node:crypto');
    expect(runner.packages).not.toContain('node:child_process');
    // The fallback spool is still loaded only when the state dir cannot take the job.
    expect(importClosure(join(dist, 'hook/run-hook.js'), { followDynamic: true }).files).toContain(join(dist, 'queue/fallback-spool.js'));
  });
});
