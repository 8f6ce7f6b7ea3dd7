/**
 * Scenario 3: the state dir's disk fills up. RECALL_HOME sits on a small tmpfs (needs root for
 * `mount`; skipped with a message otherwise) that a filler fills to the last page.
 * Hooks must still answer `{}` and exit 0 and still queue every session (in the fallback spool on
 * another file system when the state dir has no room), nothing in either spool may be half-written,
 * a worker that runs on the full disk must neither lose nor duplicate a job nor break the store, and
 * once space is freed `recall drain` captures everything that was queued, each exactly once.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { statePaths } from '../../src/core/state-paths.js';
import { fallbackPendingDir } from '../../src/queue/fallback-spool.js';
import { newCaptureJob, parseJob } from '../../src/queue/job.js';
import { Spool } from '../../src/queue/spool.js';
import { runCli, runHook } from '../support/cli.js';
import { startHarness, type Harness } from '../support/harness.js';
import { checkInvariants, describeReport } from '../support/torture-invariants.js';
import { tortureSession, type TortureSession } from '../support/torture-sessions.js';

const PAGE = 4096;

let h: Harness;
let mountPoint = '';
let mountError: string | null = null;

beforeAll(async () => {
  h = await startHarness({ embedder: 'hash' });
  mountPoint = join(h.root, 'small-disk');
  mkdirSync(mountPoint, { recursive: true });
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=4m,mode=0700', 'tmpfs', mountPoint], { stdio: 'pipe' });
  } catch (err) {
    mountError = String((err as { stderr?: Buffer }).stderr ?? err).trim();
  }
});
afterAll(async () => {
  if (!mountError) execFileSync('umount', ['-l', mountPoint], { stdio: 'pipe' });
  await h.close();
});

/** Fills the disk with 64 KiB files, then single pages, until nothing fits; returns the page files. */
function fillDisk(dir: string): string[] {
  mkdirSync(dir, { recursive: true });
  const chunks = fillWith(dir, 64 * 1024);
  let pages = fillWith(dir, PAGE, 'a');
  // The chunks can end exactly at the limit: free one and fill its room with pages, so some are there to free.
  if (pages.length === 0 && chunks.length > 0) {
    rmSync(chunks.pop()!);
    pages = fillWith(dir, PAGE, 'b');
  }
  return pages;
}

/** Files of `size` bytes until the file system is full; their paths. */
function fillWith(dir: string, size: number, tag = ''): string[] {
  const files: string[] = [];
  for (let i = 0; ; i += 1) {
    const file = join(dir, `${size}${tag}-${i}`);
    try {
      writeFileSync(file, Buffer.alloc(size, 1));
      files.push(file);
    } catch (err) {
      rmSync(file, { force: true });
      if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
      return files;
    }
  }
}

function spoolFiles(home: string): { parsed: number; broken: string[]; temp: string[] } {
  const paths = statePaths(home);
  const out = { parsed: 0, broken: [] as string[], temp: [] as string[] };
  for (const dir of [paths.spoolPending, paths.spoolProcessing, paths.spoolFailed]) {
    for (const name of existsSync(dir) ? readdirSync(dir) : []) {
      if (name.startsWith('.tmp-')) out.temp.push(name);
      else if (parseJob(readFileSync(join(dir, name), 'utf8'))) out.parsed += 1;
      else out.broken.push(name);
    }
  }
  return out;
}

function jobSessions(dir: string): string[] {
  return (existsSync(dir) ? readdirSync(dir) : []).flatMap((name) => {
    const job = name.startsWith('.') ? null : parseJob(readFileSync(join(dir, name), 'utf8'));
    return job?.sessionId ? [job.sessionId] : [];
  });
}

/** Fallback-spool files of `home` under `tmp`: sessions of the parsed jobs, and files that are not whole jobs. */
function fallbackFiles(home: string, tmp: string): { sessions: string[]; broken: string[] } {
  const dir = fallbackPendingDir(tmp, home);
  const out = { sessions: [] as string[], broken: [] as string[] };
  for (const name of existsSync(dir) ? readdirSync(dir) : []) {
    const job = parseJob(readFileSync(join(dir, name), 'utf8'));
    if (job?.sessionId && !name.startsWith('.')) out.sessions.push(job.sessionId);
    else out.broken.push(name);
  }
  return out;
}

describe('a full disk under the state dir', () => {
  it('keeps hooks answering, writes nothing half, and captures every queued job once space is back', async (ctx) => {
    if (mountError) {
      console.log(`[torture] disk-full: SKIPPED, cannot mount a tmpfs (needs root): ${mountError}`);
      ctx.skip();
      return;
    }
    // The fallback spool's temp folder lives on the big disk, as /tmp does on a real machine.
    const tmp = join(h.root, 'tmp');
    mkdirSync(tmp, { recursive: true });
    const env = { ...h.env, RECALL_HOME: join(mountPoint, 'home'), RECALL_HOOK_SPAWN: '0', RECALL_MAX_ATTEMPTS: '20', TMPDIR: tmp };
    // For looking without adopting: `recall status` in the invariant check would move fallback jobs in.
    const lookEnv = { ...env, TMPDIR: join(h.root, 'no-tmp') };
    const home = env.RECALL_HOME;
    const expected: TortureSession[] = [];

    // A working store first, so the full disk hits a real table.
    for (let i = 0; i < 3; i += 1) {
      const s = tortureSession(h, `before-full-${i}`, 'disk');
      expected.push(s);
      expect((await runHook('session-end', s.payload, { env })).exitCode).toBe(0);
    }
    const first = await runCli(['drain', '--json'], { env });
    expect(first.exitCode, first.stdout + first.stderr).toBe(0);

    // Disk full: hooks answer, write either a whole job or nothing.
    const pages = fillDisk(join(mountPoint, 'filler'));
    const full: TortureSession[] = [];
    for (let i = 0; i < 10; i += 1) {
      const s = tortureSession(h, `while-full-${i}`, 'disk');
      full.push(s);
      const hook = await runHook('session-end', s.payload, { env });
      expect(hook.exitCode).toBe(0);
      expect(JSON.parse(hook.stdout)).toEqual({});
    }
    // A few pages free: some hooks fit, the rest do not.
    for (const file of pages.splice(0, 4)) rmSync(file);
    for (let i = 0; i < 10; i += 1) {
      const s = tortureSession(h, `nearly-full-${i}`, 'disk');
      full.push(s);
      const hook = await runHook('session-end', s.payload, { env });
      expect(hook.exitCode).toBe(0);
      expect(JSON.parse(hook.stdout)).toEqual({});
    }
    const afterHooks = spoolFiles(home);
    expect(afterHooks.broken).toEqual([]);
    expect(afterHooks.temp).toEqual([]);
    // Every session is queued exactly once: in the state dir's spool when a job file fit, else in the fallback spool.
    const inSpool = jobSessions(statePaths(home).spoolPending);
    const fallback = fallbackFiles(home, tmp);
    expect(fallback.broken).toEqual([]);
    expect([...inSpool, ...fallback.sessions].sort()).toEqual(full.map((s) => s.sessionId).sort());
    // The first ten hooks found the disk full to the last page: all of them fell back.
    expect(full.slice(0, 10).filter((s) => !fallback.sessions.includes(s.sessionId))).toEqual([]);
    expected.push(...full);
    console.log(`[torture] disk-full: ${full.length} hooks on a full disk, ${inSpool.length} queued in the state dir, ${fallback.sessions.length} in the fallback spool`);

    // `recall status` on the full disk reports the fallback jobs and why they cannot move in yet.
    const status = await runCli(['status', '--json'], { env });
    expect(status.exitCode, status.stderr).toBe(0);
    const reported = JSON.parse(status.stdout) as { queue: { pending: number; fallback: number }; fallback: { problem: string | null } | null };
    expect(reported.queue.pending + reported.queue.fallback).toBe(full.length);
    expect(reported.queue.fallback).toBeGreaterThan(0);
    expect(reported.fallback?.problem).toMatch(/ENOSPC/);

    // A worker on the full disk: whatever it manages, nothing is lost, duplicated or broken.
    for (const file of pages.splice(0, 2)) rmSync(file); // room for the temp files of a retry, not for a table write
    const onFull = await runCli(['drain', '--json'], { env, timeoutMs: 180_000 });
    console.log(`[torture] disk-full: drain on the full disk exited ${onFull.exitCode}: ${(onFull.stdout + onFull.stderr).trim().slice(0, 300)}`);
    const stillFallback = fallbackFiles(home, tmp);
    expect(stillFallback.broken).toEqual([]);
    const duringFull = await checkInvariants(lookEnv, expected.filter((s) => !stillFallback.sessions.includes(s.sessionId)));
    console.log(describeReport('disk-full, still full', duringFull) + `; in the fallback spool ${stillFallback.sessions.length}`);
    expect(duringFull.problems).toEqual([]);
    expect(spoolFiles(home).broken).toEqual([]);
    // A job still in the fallback is nowhere else: not in the state dir's spool, not captured.
    const elsewhere = new Set([...[statePaths(home).spoolPending, statePaths(home).spoolProcessing, statePaths(home).spoolFailed].flatMap(jobSessions)]);
    expect(stillFallback.sessions.filter((id) => elsewhere.has(id))).toEqual([]);
    expect(new Set(stillFallback.sessions).size).toBe(stillFallback.sessions.length);

    // Space back: everything queued is captured, once.
    rmSync(join(mountPoint, 'filler'), { recursive: true, force: true });
    const drained = await runCli(['drain', '--json'], { env, timeoutMs: 180_000 });
    expect(drained.exitCode, drained.stdout + drained.stderr).toBe(0);
    const report = await checkInvariants(env, expected);
    console.log(describeReport('disk-full, space freed', report));
    expect(report.problems).toEqual([]);
    expect(report.states).toEqual({ captured: expected.length, pending: 0, processing: 0, failed: 0 });
    expect(report.strayTempFiles).toEqual([]);
    expect(fallbackFiles(home, tmp)).toEqual({ sessions: [], broken: [] });
  }, 600_000);

  it('leaves the old job file whole when a rewrite bigger than the free space fails', (ctx) => {
    if (mountError) {
      console.log(`[torture] disk-full: SKIPPED, cannot mount a tmpfs (needs root): ${mountError}`);
      ctx.skip();
      return;
    }
    const spool = new Spool(statePaths(join(mountPoint, 'rewrite')));
    const job = newCaptureJob({ sessionId: 'big-answer', transcriptPath: '/nowhere.jsonl', cwd: null, agent: 'claude', reason: null });
    const entry = { folder: 'pending' as const, file: spool.enqueue(job), job };
    const filler = join(mountPoint, 'filler-2');
    const pages = fillDisk(filler);
    rmSync(pages.pop()!); // one page free: a rewrite of two pages starts, then runs out
    // The model's answer cached in the job: twelve long memories, well over one page.
    const extracted = Array.from({ length: 12 }, (_, i) => ({ content: `You MUST keep rule ${i} ${'x'.repeat(400)}`, type: 'golden_rule', importance: 1 }));
    expect(() => spool.update(entry, { ...job, extracted })).toThrow(/ENOSPC/);
    const after = parseJob(readFileSync(entry.file, 'utf8'));
    expect(after).toMatchObject({ id: job.id, sessionId: 'big-answer' });
    expect(readdirSync(spool.dir('pending')).filter((name) => name.startsWith('.tmp-'))).toEqual([]);
    rmSync(filler, { recursive: true, force: true });
  });
});
