/**
 * Scenario 1: 200 SessionEnd hooks across 20 projects, all started at once, each spawning a real
 * detached worker, each fed its stdin at once as an agent does.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { statePaths } from '../../src/core/state-paths.js';
import { Spool } from '../../src/queue/spool.js';
import { waitFor } from '../support/cli.js';
import { startHook } from '../support/torture-hooks.js';
import { startHarness, type Harness } from '../support/harness.js';
import { checkInvariants, describeReport } from '../support/torture-invariants.js';
import { tortureSession } from '../support/torture-sessions.js';

const HOOKS = 200;
const PROJECTS = 20;

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ embedder: 'hash' });
});
afterAll(async () => {
  await h.close();
});

describe('a burst of session ends', () => {
  it(`captures ${HOOKS} sessions ended at once across ${PROJECTS} projects, each exactly once`, async () => {
    const env = { ...h.env, RECALL_HOME: join(h.root, 'burst') };
    const sessions = Array.from({ length: HOOKS }, (_, i) => tortureSession(h, `burst-${i}`, `project-${i % PROJECTS}`));

    const started = Date.now();
    const results = await Promise.all(sessions.map((s) => startHook('session-end', s.payload, env)));
    const hooksMs = Date.now() - started;
    const bad = results.filter((r) => r.exitCode !== 0 || r.stdout !== '{}\n');
    expect(bad.map((r) => `${r.exitCode} ${JSON.stringify(r.stdout)} ${r.stderr.slice(0, 200)}`)).toEqual([]);

    const paths = statePaths(env.RECALL_HOME);
    const spool = new Spool(paths);
    const queued = spool.counts();
    await waitFor(
      () => {
        const lines = existsSync(paths.historyFile) ? readFileSync(paths.historyFile, 'utf8').trim().split('\n').length : 0;
        const c = spool.counts();
        return lines >= HOOKS && c.pending === 0 && c.processing === 0 ? true : undefined;
      },
      { timeoutMs: 300_000, everyMs: 500 },
    ).catch(() => undefined); // the invariant check below says what is missing
    const report = await checkInvariants(env, sessions);
    console.log(`[torture] burst: ${HOOKS} hooks returned in ${hooksMs} ms (queued after hooks: ${JSON.stringify(queued)}); all captured after ${Date.now() - started} ms`);
    console.log(describeReport('burst', report));
    expect(report.problems).toEqual([]);
    expect(report.states).toEqual({ captured: HOOKS, pending: 0, processing: 0, failed: 0 });
    expect(report.rows).toBe(HOOKS);
    expect(report.strayTempFiles).toEqual([]);
  }, 420_000);
});
