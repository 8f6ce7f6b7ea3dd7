/**
 * The processes that work on state dirs in one folder: every process (other than this one) whose
 * environment carries `RECALL_HOME=<dir>` with `dir` that folder or inside it, found through /proc
 * (Linux; elsewhere none are found). A world's teardown waits for them, so a detached worker a hook
 * started is not writing while its folder is removed.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { waitFor } from './cli.js';

export function processesOf(folder: string): number[] {
  const exact = `RECALL_HOME=${folder}`;
  const within = `${exact}/`;
  return safeList('/proc')
    .filter((name) => /^\d+$/.test(name) && Number(name) !== process.pid)
    .filter((name) => safeRead(`/proc/${name}/environ`).split('\0').some((entry) => entry === exact || entry.startsWith(within)))
    .map(Number);
}

/** Waits until no process works in `folder`; after `graceMs` the rest are killed (the test is over) and waited for. */
export async function settleProcessesOf(folder: string, graceMs = 5_000): Promise<void> {
  const none = async () => (processesOf(folder).length === 0 ? true : undefined);
  try {
    await waitFor(none, { timeoutMs: graceMs, everyMs: 100 });
    return;
  } catch {
    const left = processesOf(folder);
    // Named, so a test that leaves a process behind is seen rather than hidden by the kill.
    console.warn(`teardown: ending ${left.length} process(es) still working in ${folder}: ${left.map((pid) => safeRead(`/proc/${pid}/cmdline`).split('\0').join(' ').trim()).join('; ')}`);
    for (const pid of left) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
  }
  await waitFor(none, { timeoutMs: 5_000, everyMs: 100 }).catch(() => undefined);
}

export function safeList(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

export function safeRead(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}
