/**
 * Scenario 2: the worker SIGKILLed at random points across 100 runs. Each run queues one more
 * session, starts `recall worker` against a model double with a random delay, and kills it after a
 * random time (during start-up, the model call, the store write or the bookkeeping). Between kills
 * the dead worker's locks are back-dated (what the stale time would do) so the next worker takes
 * over at once; every DRAIN_EVERY kills `recall drain` with RECALL_LOCK_STALE_MS=5000 waits for real
 * staleness and must finish the backlog, and the invariant is checked.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { statePaths } from '../../src/core/state-paths.js';
import { CLI, runCli, runHook } from '../support/cli.js';
import { startHarness, type Harness } from '../support/harness.js';
import { checkInvariants, describeReport } from '../support/torture-invariants.js';
import { ageLocks, seededRandom, sleep, tortureSeed, tortureSession, type TortureSession } from '../support/torture-sessions.js';

const KILLS = Number(process.env.TORTURE_KILLS ?? 100);
const DRAIN_EVERY = 10;
const MAX_KILL_DELAY_MS = 2_000;
const MAX_MODEL_DELAY_MS = 300;

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ embedder: 'hash' });
});
afterAll(async () => {
  await h.close();
});

describe('a worker killed at random points', () => {
  it(`loses and duplicates nothing across ${KILLS} SIGKILLs, and drain finishes the work`, async () => {
    const seed = tortureSeed();
    const random = seededRandom(seed);
    // The kills here are deliberate and land on the same job again and again; by default a job whose
    // worker stopped mid-job twice is set aside as one that crashes workers, which is not what this checks.
    const env = { ...h.env, RECALL_HOME: join(h.root, 'sigkill'), RECALL_HOOK_SPAWN: '0', RECALL_LOCK_STALE_MS: '5000', RECALL_MAX_CRASHES: String(KILLS + 1) };
    const paths = statePaths(env.RECALL_HOME);
    const sessions: TortureSession[] = [];
    const killedAt = { beforeClaim: 0, midJob: 0, exitedFirst: 0 };
    const started = Date.now();
    console.log(`[torture] sigkill: seed ${seed} (replay with TORTURE_SEED=${seed})`);

    for (let run = 1; run <= KILLS; run += 1) {
      const session = tortureSession(h, `kill-${run}`, `project-${run % 7}`);
      sessions.push(session);
      const hook = await runHook('session-end', session.payload, { env });
      expect(hook.exitCode).toBe(0);

      h.double.configure({ delayMs: Math.floor(random() * MAX_MODEL_DELAY_MS) });
      const worker = execa(process.execPath, [CLI, 'worker'], { env, extendEnv: false, reject: false });
      await sleep(Math.floor(random() * MAX_KILL_DELAY_MS));
      const killed = worker.kill('SIGKILL');
      const result = await worker;
      if (!killed || result.signal !== 'SIGKILL') killedAt.exitedFirst += 1;
      else if (existsSync(paths.spoolProcessing) && readdirSync(paths.spoolProcessing).length > 0) killedAt.midJob += 1;
      else killedAt.beforeClaim += 1;

      if (run % DRAIN_EVERY !== 0) {
        ageLocks(paths.home);
        continue;
      }
      h.double.configure({ delayMs: 0 });
      const drain = await runCli(['drain', '--json'], { env, timeoutMs: 180_000 });
      expect(drain.exitCode, drain.stderr).toBe(0);
      const report = await checkInvariants(env, sessions);
      console.log(`${describeReport(`sigkill after ${run} kills`, report)}; drain ${drain.stdout.trim()}`);
      expect(report.problems).toEqual([]);
      expect(report.states).toEqual({ captured: sessions.length, pending: 0, processing: 0, failed: 0 });
    }
    console.log(
      `[torture] sigkill: ${KILLS} runs in ${((Date.now() - started) / 1000).toFixed(1)} s; killed before claiming a job ${killedAt.beforeClaim}, mid-job ${killedAt.midJob}, worker exited before the kill ${killedAt.exitedFirst}`,
    );
    expect(killedAt.midJob).toBeGreaterThan(0);
  }, 900_000);
});
