/**
 * Scenario 4: Ollama flapping up and down while the queue drains. A timer switches the model
 * double between healthy, HTTP 500/503, garbage-free timeouts and a closed port (connection
 * refused), while one lingering worker and repeated `recall drain` runs work through 40 jobs.
 * Every job must be retried until it is captured, once.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, runCli, runHook } from '../support/cli.js';
import { startHarness, type Harness } from '../support/harness.js';
import { checkInvariants, describeReport } from '../support/torture-invariants.js';
import { seededRandom, sleep, tortureSeed, tortureSession, type TortureSession } from '../support/torture-sessions.js';

const JOBS = 40;
const FLAP_MS = 400;

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ embedder: 'hash' });
});
afterAll(async () => {
  await h.close();
});

type Mode = 'up' | 'http-500' | 'http-503' | 'slow' | 'down';

describe('Ollama flapping up and down', () => {
  it(`retries every job until it is captured, once, across ${JOBS} jobs`, async () => {
    const seed = tortureSeed();
    const random = seededRandom(seed);
    const env = {
      ...h.env,
      RECALL_HOME: join(h.root, 'flapping'),
      RECALL_HOOK_SPAWN: '0',
      RECALL_BACKOFF_MS: '100',
      RECALL_MAX_ATTEMPTS: '1000',
      RECALL_WORKER_LINGER_MS: '60000',
      RECALL_OLLAMA_TIMEOUT_MS: '600',
    };
    const sessions: TortureSession[] = [];
    for (let i = 0; i < JOBS; i += 1) {
      const s = tortureSession(h, `flap-${i}`, `project-${i % 5}`);
      sessions.push(s);
      expect((await runHook('session-end', s.payload, { env })).exitCode).toBe(0);
    }

    const port = h.ollama.port;
    const modes: Record<Mode, number> = { up: 0, 'http-500': 0, 'http-503': 0, slow: 0, down: 0 };
    let listening = true;
    let flapping = true;
    const flapper = (async () => {
      while (flapping) {
        const mode = (['up', 'up', 'http-500', 'http-503', 'slow', 'down'] as const)[Math.floor(random() * 6)]!;
        modes[mode] += 1;
        h.double.reset();
        if (mode === 'http-500') h.double.configure({ failStatus: 500 });
        if (mode === 'http-503') h.double.configure({ failStatus: 503, failMessage: 'server busy' });
        if (mode === 'slow') h.double.configure({ delayMs: 1_000 }); // past RECALL_OLLAMA_TIMEOUT_MS
        if (mode === 'down' && listening) {
          await h.double.close();
          listening = false;
        } else if (mode !== 'down' && !listening) {
          await h.double.start(port);
          listening = true;
        }
        await sleep(FLAP_MS / 2 + random() * FLAP_MS);
      }
    })();

    const started = Date.now();
    const worker = execa(process.execPath, [CLI, 'worker'], { env, extendEnv: false, reject: false });
    const drains: string[] = [];
    for (let i = 0; i < 4; i += 1) {
      await sleep(1_500);
      const drain = await runCli(['drain', '--json'], { env, timeoutMs: 120_000 });
      drains.push(`${drain.exitCode} ${JSON.stringify(JSON.parse(drain.stdout || 'null'))}`);
    }
    const workerResult = await worker;
    flapping = false;
    await flapper;
    h.double.reset();
    if (!listening) await h.double.start(port);

    const during = await checkInvariants(env, sessions);
    console.log(`[torture] flapping: seed ${seed}; modes ${JSON.stringify(modes)}; worker exit ${workerResult.exitCode} after ${Date.now() - started} ms; drains ${drains.join('; ')}`);
    console.log(describeReport('flapping, Ollama still flapping', during));
    expect(during.problems).toEqual([]);
    expect(during.states.failed).toBe(0);

    const final = await runCli(['drain', '--json'], { env, timeoutMs: 120_000 });
    expect(final.exitCode, final.stdout + final.stderr).toBe(0);
    const report = await checkInvariants(env, sessions);
    console.log(describeReport('flapping, Ollama steady again', report));
    expect(report.problems).toEqual([]);
    expect(report.states).toEqual({ captured: JOBS, pending: 0, processing: 0, failed: 0 });
    const retryLines = readFileSync(join(env.RECALL_HOME, 'recall.log'), 'utf8').split('\n').filter((line) => line.includes('job will be retried'));
    const retries = retryLines.length;
    const causes = new Map<string, number>();
    for (const line of retryLines) {
      const cause = /job will be retried: (\w+)/.exec(line)?.[1] ?? 'other';
      causes.set(cause, (causes.get(cause) ?? 0) + 1);
    }
    console.log(`[torture] flapping: ${retries} retries scheduled in all, by cause ${JSON.stringify(Object.fromEntries(causes))}`);
    expect(retries).toBeGreaterThan(0);
  }, 600_000);
});
