/**
 * Scenario 1: bursts of SessionEnd hooks across 20 projects, all started at once (50 and 200, with
 * stdin from pipes and from files, as agents and shells hand it), each allowed to spawn a real
 * detached worker. Every session is captured exactly once, no worker or upkeep runs beside another of
 * its kind, and each hook's return time is reported. The hooks run from a niced child process, so the
 * burst does not starve the test runner.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { statePaths } from '../../src/core/state-paths.js';
import { Spool } from '../../src/queue/spool.js';
import { waitFor } from '../support/cli.js';
import { startHarness, type Harness } from '../support/harness.js';
import { checkInvariants, describeReport } from '../support/torture-invariants.js';
import { tortureSession } from '../support/torture-sessions.js';
import { runBurst, spread, watchProcesses } from '../support/torture-burst.js';

const PROJECTS = 20;
const CASES: Array<[number, 'pipe' | 'file']> = [
  [50, 'pipe'],
  [50, 'file'],
  [200, 'pipe'],
  [200, 'file'],
];

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ embedder: 'hash' });
});
afterAll(async () => {
  await h.close();
});

describe('a burst of session ends', () => {
  it.each(CASES)('captures %i sessions ended at once (stdin from %ss) each exactly once, with one worker process at a time', async (hooks, stdin) => {
    const name = `burst-${hooks}-${stdin}`;
    // Upkeep early, so the burst also starts it: at most one may run at a time.
    const env = { ...h.env, RECALL_HOME: join(h.root, name), RECALL_OPTIMIZE_EVERY_VERSIONS: '5' };
    const sessions = Array.from({ length: hooks }, (_, i) => tortureSession(h, `${name}-${i}`, `project-${i % PROJECTS}`));

    const watch = watchProcesses(env.RECALL_HOME);
    const started = Date.now();
    const results = await runBurst(sessions.map((s) => s.payload), env, stdin, h.root);
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
        return lines >= hooks && c.pending === 0 && c.processing === 0 ? true : undefined;
      },
      { timeoutMs: 400_000, everyMs: 500 },
    ).catch(() => undefined); // the invariant check below says what is missing
    const processes = watch.stop();
    const report = await checkInvariants(env, sessions);
    const returns = spread(results.map((r) => r.ms));
    console.log(
      `[torture] ${name}: hooks returned in ${hooksMs} ms (each: median ${returns.median} ms, p95 ${returns.p95}, max ${returns.max}); queued after hooks: ${JSON.stringify(queued)}; ` +
        `workers at once ${processes.workers} (${processes.workerPids} in all), upkeeps at once ${processes.upkeeps} (${processes.upkeepPids} in all); all captured after ${Date.now() - started} ms`,
    );
    console.log(describeReport(name, report));
    if (processes.overlapping.length > 0) console.log(`[torture] ${name}: workers seen at once: ${describeWorkers(env.RECALL_HOME, processes.overlapping)}`);
    expect(report.problems).toEqual([]);
    expect(report.states).toEqual({ captured: hooks, pending: 0, processing: 0, failed: 0 });
    expect(report.rows).toBe(hooks);
    expect(report.strayTempFiles).toEqual([]);
    // One worker process at a time, hand-off included: a worker that runs out of jobs closes its store,
    // lets go of its start marker and looks once more; a job queued meanwhile it runs itself (start-marker.ts
    // releaseOrKeep), and a hook that comes after the marker went starts the next one as this one exits.
    // (The upkeep a worker forks shows the worker's command line until its exec; the watch does not count it.)
    expect(processes.workers).toBe(1);
    expect(processes.upkeeps).toBeLessThanOrEqual(2);
  }, 600_000);
});

/** What the log says of each worker seen beside another: when it started, what it ran, how it left. */
function describeWorkers(home: string, pids: readonly number[]): string {
  const log = existsSync(join(home, 'recall.log')) ? readFileSync(join(home, 'recall.log'), 'utf8').split('\n') : [];
  return pids
    .map((pid) => {
      const lines = log.filter((line) => line.includes(`"pid":${pid},`) && line.includes('"component":"worker"'));
      const said = lines.filter((line) => !line.includes('"msg":"captured"')).map((line) => /"t":"([^"]+)".*"msg":"([^"]+)"/.exec(line)?.slice(1).join(' ') ?? '');
      return `${pid}: ${lines.length} lines, first ${/"t":"([^"]+)"/.exec(lines[0] ?? '')?.[1] ?? '-'}; ${said.slice(-4).join(' | ')}`;
    })
    .join('; ');
}
