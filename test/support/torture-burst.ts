/**
 * A burst of SessionEnd hooks for the torture suite and the bench: started from a child process at a
 * lower priority (`nice`), so the burst never starves the test runner, and watched from here: how long
 * each hook took to return, and how many recall workers and upkeep processes ran at once.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BIN, type CliResult } from './cli.js';
import { safeList, safeRead } from './state-processes.js';

const RUNNER = fileURLToPath(new URL('./burst-runner.mjs', import.meta.url));

export interface HookReturn extends CliResult {
  ms: number;
}

/** Runs the hooks at once from a niced child; resolves with each hook's result and return time. */
export function runBurst(payloads: readonly unknown[], env: NodeJS.ProcessEnv, stdin: 'pipe' | 'file', dir: string): Promise<HookReturn[]> {
  const work = mkdtempSync(join(dir, 'burst-'));
  const spec = join(work, 'spec.json');
  writeFileSync(spec, JSON.stringify({ cli: BIN, env, payloads, stdin, dir: work }));
  const command = process.platform === 'win32' ? [process.execPath, RUNNER, spec] : ['nice', '-n', '10', process.execPath, RUNNER, spec];
  return new Promise((resolve, reject) => {
    execFile(command[0]!, command.slice(1), { maxBuffer: 64 * 1024 * 1024 }, (err, stdout) => {
      if (err) reject(err);
      else resolve(JSON.parse(stdout) as HookReturn[]);
    });
  });
}

export interface ProcessWatch {
  /** The most recall workers / upkeep processes of this state dir seen running at the same time. */
  stop(): { workers: number; upkeeps: number; workerPids: number; upkeepPids: number; overlapping: number[] };
}

/** Polls /proc for `recall worker` and upkeep processes whose RECALL_HOME is `home` (Linux only). */
export function watchProcesses(home: string, everyMs = 100): ProcessWatch {
  const most = { workers: 0, upkeeps: 0 };
  const seen = { workers: new Set<number>(), upkeeps: new Set<number>() };
  /** The workers of the first sample that saw more than one at once. */
  let overlapping: number[] = [];
  const look = (): void => {
    const found: Array<{ pid: number; parent: number; kind: 'worker' | 'upkeep' }> = [];
    for (const name of safeList('/proc')) {
      if (!/^\d+$/.test(name)) continue;
      const cmdline = safeRead(`/proc/${name}/cmdline`).split('\0');
      const isWorker = cmdline.includes('worker') && cmdline.some((arg) => arg.endsWith('cli/main.js'));
      const isUpkeep = cmdline.some((arg) => arg.endsWith('maintain-child.js'));
      if (!isWorker && !isUpkeep) continue;
      if (!safeRead(`/proc/${name}/environ`).split('\0').includes(`RECALL_HOME=${home}`)) continue;
      found.push({ pid: Number(name), parent: parentOf(name), kind: isWorker ? 'worker' : 'upkeep' });
    }
    // A child a worker forks (the upkeep it starts) carries the worker's command line until its exec:
    // that is not a second worker. A real worker's parent is the hook that started it (or init).
    const workerPids = new Set(found.filter((p) => p.kind === 'worker').map((p) => p.pid));
    const pids: number[] = [];
    let workers = 0;
    let upkeeps = 0;
    for (const p of found) {
      if (p.kind === 'upkeep') {
        upkeeps += 1;
        seen.upkeeps.add(p.pid);
      } else if (!workerPids.has(p.parent)) {
        workers += 1;
        pids.push(p.pid);
        seen.workers.add(p.pid);
      }
    }
    if (workers > 1 && overlapping.length === 0) overlapping = pids;
    most.workers = Math.max(most.workers, workers);
    most.upkeeps = Math.max(most.upkeeps, upkeeps);
  };
  const timer = setInterval(look, everyMs);
  look();
  return {
    stop() {
      clearInterval(timer);
      look();
      return { ...most, workerPids: seen.workers.size, upkeepPids: seen.upkeeps.size, overlapping };
    },
  };
}

/** The parent pid from /proc/<pid>/stat (the field after the parenthesised command name). */
function parentOf(pid: string): number {
  const stat = safeRead(`/proc/${pid}/stat`);
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1] ?? NaN);
}

/** Median, 95th percentile and maximum, rounded to ms. */
export function spread(values: readonly number[]): { median: number; p95: number; max: number } {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0);
  return { median: at(0.5), p95: at(0.95), max: Math.round(sorted[sorted.length - 1] ?? 0) };
}
