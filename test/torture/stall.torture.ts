/**
 * Scenario 6: a worker stalled past its lock's stale time, as a worker started at low priority is
 * when a burst of session ends starves it of CPU. Each round queues a few sessions, starts
 * `recall worker`, stops it (SIGSTOP) at a random point (start-up, the model call, the store write,
 * the bookkeeping), back-dates its locks as the stale time would, starts a second worker, which takes
 * the queue over, and resumes the first after a random time. Then `recall drain` runs whatever
 * neither worker got to, and the invariant is checked: no job ran in both workers.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { statePaths } from '../../src/core/state-paths.js';
import { CLI, runCli, runHook, waitFor } from '../support/cli.js';
import { startHarness, type Harness } from '../support/harness.js';
import { checkInvariants, describeReport } from '../support/torture-invariants.js';
import { ageLocks, seededRandom, sleep, tortureSeed, tortureSession, type TortureSession } from '../support/torture-sessions.js';

const ROUNDS = Number(process.env.TORTURE_STALLS ?? 20);
const HOG_ROUNDS = Number(process.env.TORTURE_HOG_STALLS ?? 6);
const JOBS_PER_ROUND = 3;
const MAX_STOP_DELAY_MS = 1_500;
const MAX_STALL_MS = 2_500;
const MAX_MODEL_DELAY_MS = 300;

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ embedder: 'hash' });
});
afterAll(async () => {
  await h.close();
});

describe('a worker stalled past its lock stale time', () => {
  it(`runs no job twice across ${ROUNDS} stalls while a second worker takes the queue over`, () => runStalls('stall', ROUNDS), 600_000);

  it(`loses and repeats no job across ${HOG_ROUNDS} stalls with a CPU hog on every core beside it`, async () => {
    const hogs = startCpuHogs();
    try {
      await runStalls('stall-hog', HOG_ROUNDS);
    } finally {
      for (const hog of hogs) hog.kill('SIGKILL');
    }
  }, 900_000);
});

async function runStalls(name: string, rounds: number): Promise<void> {
  const seed = tortureSeed();
  const random = seededRandom(seed);
  // A long model time-out: a stop under load must not fail the model call (a retry, which is not the case tested).
  const env = { ...h.env, RECALL_HOME: join(h.root, name), RECALL_HOOK_SPAWN: '0', RECALL_LOCK_STALE_MS: '5000', RECALL_OLLAMA_TIMEOUT_MS: '600000' };
  const paths = statePaths(env.RECALL_HOME);
  const sessions: TortureSession[] = [];
  const stoppedAt = { midJob: 0, elsewhere: 0, exitedFirst: 0 };
  const exits: Record<string, number> = {};
  const started = Date.now();
  console.log(`[torture] ${name}: seed ${seed} (replay with TORTURE_SEED=${seed})`);

  for (let round = 1; round <= rounds; round += 1) {
    for (let j = 0; j < JOBS_PER_ROUND; j += 1) {
      const session = tortureSession(h, `stall-${round}-${j}`, `project-${(round + j) % 5}`);
      sessions.push(session);
      expect((await runHook('session-end', session.payload, { env })).exitCode).toBe(0);
    }
    h.double.configure({ delayMs: Math.floor(random() * MAX_MODEL_DELAY_MS) });
    const first = execa(process.execPath, [CLI, 'worker'], { env, extendEnv: false, reject: false });
    // Every other round stops it in the middle of a job for sure (a loaded machine can take longer than
    // MAX_STOP_DELAY_MS just to start a worker); the others at a random point.
    if (round % 2 === 0) await waitFor(() => (claimedBy(paths.spoolProcessing, first.pid!) || first.exitCode !== null ? true : undefined), { timeoutMs: 120_000, everyMs: 20 }).catch(() => undefined);
    else await sleep(Math.floor(random() * MAX_STOP_DELAY_MS));
    if (!first.kill('SIGSTOP') || first.exitCode !== null) stoppedAt.exitedFirst += 1;
    else if (claimedBy(paths.spoolProcessing, first.pid!)) stoppedAt.midJob += 1;
    else stoppedAt.elsewhere += 1;

    ageLocks(paths.home);
    const second = execa(process.execPath, [CLI, 'worker'], { env, extendEnv: false, reject: false });
    await sleep(Math.floor(random() * MAX_STALL_MS));
    first.kill('SIGCONT');
    for (const result of await Promise.all([first, second])) {
      const key = String(result.exitCode ?? result.signal);
      exits[key] = (exits[key] ?? 0) + 1;
      // 0: done; 75: it lost the queue lock while stopped and stopped after the job in hand.
      expect([0, 75], `${result.stderr}\n${logTail(paths.logFile)}`).toContain(result.exitCode);
    }
  }
  h.double.configure({ delayMs: 0 });
  const drain = await runCli(['drain', '--json'], { env, timeoutMs: 180_000 });
  expect(drain.exitCode, drain.stderr).toBe(0);
  const report = await checkInvariants(env, sessions);
  console.log(`${describeReport(name, report)}; drain ${drain.stdout.trim()}`);
  console.log(
    `[torture] ${name}: ${rounds} rounds in ${((Date.now() - started) / 1000).toFixed(1)} s; stopped mid-job ${stoppedAt.midJob}, before or between jobs ${stoppedAt.elsewhere}, exited before the stop ${stoppedAt.exitedFirst}; worker exit codes ${JSON.stringify(exits)}`,
  );
  expect(report.problems).toEqual([]);
  expect(report.states).toEqual({ captured: sessions.length, pending: 0, processing: 0, failed: 0 });
  expect(report.rows).toBe(sessions.length);
  expect(stoppedAt.midJob).toBeGreaterThan(0);
}

/** Busy processes, one per core, at the normal priority: the loaded machine a CI run shares. */
function startCpuHogs(): ChildProcess[] {
  return Array.from({ length: availableParallelism() }, () => spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));
}

/** True when processing/ holds a job claimed by this process. */
function claimedBy(dir: string, pid: number): boolean {
  return existsSync(dir) && readdirSync(dir).some((name) => name.includes(`@${pid}-`));
}

/** The last lines of recall.log, where a worker's errors go (it prints nothing). */
function logTail(file: string): string {
  return existsSync(file) ? readFileSync(file, 'utf8').trim().split('\n').slice(-8).join('\n') : '(no log)';
}
