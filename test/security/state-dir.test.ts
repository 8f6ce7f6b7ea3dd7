/**
 * The state dir is the user's own or refused: a symlinked log is never written through, symlinked
 * state folders and folders of another user are refused (and doctor fails on them), and clients
 * never talk to a serve socket someone else owns. The built CLI and hooks as real subprocesses.
 * Cases that need another user's files chown them to uid 65534, which only root can do: as any
 * other user they are skipped with a message.
 */
import { chmodSync, chownSync, mkdirSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { statePaths } from '../../src/core/state-paths.js';
import { startFakeDaemon } from '../support/fake-daemon.js';
import { runCli, runHook } from '../support/cli.js';
import { startHarness, type Harness } from '../support/harness.js';

const NOBODY = 65534;
const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
const asRoot = isRoot ? it : it.skip;
if (!isRoot) console.warn('[security] not root: the cases with files of another user (chown to uid 65534) are skipped');

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ embedder: 'hash' });
});
afterAll(async () => {
  await h.close();
});

/** A fresh state dir (0700, the user's own) with what the test plants in it. */
function stateDir(name: string): { env: NodeJS.ProcessEnv; home: string } {
  const home = join(h.root, name);
  mkdirSync(home, { mode: 0o700 });
  return { env: { ...h.env, RECALL_HOME: home, RECALL_HOOK_SPAWN: '0' }, home };
}

interface Doctor {
  ok: boolean;
  checks: Array<{ id: string; status: string; detail: string }>;
}

async function doctorStateDir(env: NodeJS.ProcessEnv): Promise<{ exitCode: number; check: Doctor['checks'][number] | undefined }> {
  const result = await runCli(['doctor', '--json'], { env });
  return { exitCode: result.exitCode, check: (JSON.parse(result.stdout) as Doctor).checks.find((c) => c.id === 'state-dir') };
}

describe('the log', () => {
  it('is never appended to through a symlink planted at its path', async () => {
    const { env, home } = stateDir('log-link');
    const target = join(h.root, 'log-link-target.txt');
    writeFileSync(target, 'precious\n');
    symlinkSync(target, statePaths(home).logFile);
    // A payload without a transcript path: the hook logs a warning and exits 0.
    const hook = await runHook('session-end', { session_id: 's1', cwd: h.root }, { env });
    expect(hook.exitCode).toBe(0);
    expect(hook.stdout).toBe('{}\n');
    expect(readFileSync(target, 'utf8')).toBe('precious\n');
  });
});

describe('symlinked state folders', () => {
  it('are refused by the commands, named by doctor, and the hook queues nothing through them', async () => {
    const { env, home } = stateDir('spool-link');
    const elsewhere = join(h.root, 'spool-link-elsewhere');
    mkdirSync(join(elsewhere, 'pending'), { recursive: true, mode: 0o700 });
    symlinkSync(elsewhere, join(home, 'spool'));

    const hook = await runHook('session-end', { session_id: 's1', transcript_path: h.session('spool-link', ['You MUST use pnpm.']), cwd: h.root }, { env });
    expect(hook.exitCode).toBe(0);
    expect(readdirSync(join(elsewhere, 'pending'))).toEqual([]);

    const drained = await runCli(['drain'], { env });
    expect(drained.exitCode).toBe(1);
    expect(drained.stderr).toBe(`recall: ${join(home, 'spool')} is a symlink; recall does not follow links inside its state dir; move it away (recall makes a private one) or set RECALL_HOME to a folder of your own\n`);

    const doctor = await doctorStateDir(env);
    expect(doctor.exitCode).toBe(1);
    expect(doctor.check).toMatchObject({ status: 'fail', detail: expect.stringMatching(/spool is a symlink/) });
  });

  it('refuse a symlinked database folder', async () => {
    const { env, home } = stateDir('db-link');
    const elsewhere = join(h.root, 'db-link-elsewhere');
    mkdirSync(elsewhere, { mode: 0o700 });
    symlinkSync(elsewhere, join(home, 'db'));
    const listed = await runCli(['list'], { env });
    expect(listed.exitCode).toBe(1);
    expect(listed.stderr).toMatch(/db is a symlink; recall does not follow links inside its state dir/);
    expect(readdirSync(elsewhere)).toEqual([]);
  });
});

describe('folders others may write to', () => {
  it('fail doctor: a group/world-writable spool folder', async () => {
    const { env, home } = stateDir('open-spool');
    mkdirSync(join(home, 'spool', 'pending'), { recursive: true });
    chmodSync(join(home, 'spool', 'pending'), 0o777);
    const doctor = await doctorStateDir(env);
    expect(doctor.exitCode).toBe(1);
    expect(doctor.check).toMatchObject({ status: 'fail', detail: expect.stringMatching(/pending is writable by group or others \(mode 777\)/) });
    const drained = await runCli(['drain'], { env });
    expect(drained.exitCode).toBe(1);
    expect(drained.stderr).toMatch(/pending is writable by group or others/);
  });
});

describe('a state dir of another user', () => {
  asRoot('is refused by commands and the hook, and fails doctor', async () => {
    const { env, home } = stateDir('foreign');
    chownSync(home, NOBODY, NOBODY);
    const status = await runCli(['status'], { env });
    expect(status.exitCode).toBe(1);
    expect(status.stderr).toBe(`recall: the state dir ${home} is owned by uid ${NOBODY}, not by you (uid 0); set RECALL_HOME to a folder of your own\n`);

    await runHook('session-end', { session_id: 's1', transcript_path: h.session('foreign', ['You MUST use pnpm.']), cwd: h.root }, { env });
    expect(readdirSync(home).filter((name) => name !== 'recall.log')).toEqual([]);

    const doctor = await doctorStateDir(env);
    expect(doctor.exitCode).toBe(1);
    expect(doctor.check).toMatchObject({ status: 'fail', detail: `${home} is owned by uid ${NOBODY}, not by you (uid 0); recall refuses to use it` });
  });

  asRoot('is refused for a folder inside the state dir', async () => {
    const { env, home } = stateDir('foreign-db');
    mkdirSync(join(home, 'db'), { mode: 0o700 });
    chownSync(join(home, 'db'), NOBODY, NOBODY);
    const listed = await runCli(['list'], { env });
    expect(listed.exitCode).toBe(1);
    expect(listed.stderr).toMatch(/db is owned by uid 65534, not by you/);
  });
});

describe('the serve socket', () => {
  asRoot('is not used when another user owns it: the command runs in-process instead', async () => {
    const { env, home } = stateDir('foreign-socket');
    const daemon = await startFakeDaemon(home, () => ({ stdout: 'answered by a stranger\n', stderr: '', exitCode: 0 }));
    try {
      chownSync(daemon.socketPath, NOBODY, NOBODY);
      const listed = await runCli(['list'], { env });
      expect(listed.exitCode, listed.stderr).toBe(0);
      expect(listed.stdout).not.toMatch(/stranger/);
      expect(daemon.requests).toEqual([]);
    } finally {
      await daemon.close();
    }
  });

  it('is used when it is the user\'s own (the same fake daemon answers)', async () => {
    const { env, home } = stateDir('own-socket');
    const daemon = await startFakeDaemon(home, () => ({ stdout: 'answered by the daemon\n', stderr: '', exitCode: 0 }));
    try {
      const listed = await runCli(['list'], { env });
      expect(listed.stdout).toBe('answered by the daemon\n');
      expect(daemon.requests).toHaveLength(1);
    } finally {
      await daemon.close();
    }
  });
});
