/**
 * The job time limit's backstop, outside the main thread: `runWithTimeLimit` needs the main thread's
 * event loop to fire its timer, and a job stuck in synchronous work (a runaway pattern, a blocking
 * call in a library) never lets it. A small thread watches the running job's deadline and, once it is
 * passed by `graceMs`, kills the whole process. The job stays in processing/ under this process's
 * name; the next worker finds its process gone and counts it as stopped mid-job (recordStoppedJob).
 */
import { Worker } from 'node:worker_threads';

export interface JobWatchdog {
  /** A job starts: the process is killed if it still runs `limitMs + graceMs` from now. */
  start(limitMs: number): void;
  /** The job ended (or was recorded as stopped): nothing to watch. */
  end(): void;
  /** Stops the thread. */
  close(): Promise<void>;
}

/** Time after the limit for the main thread to record the job itself and end the process properly. */
export const WATCHDOG_GRACE_MS = 10_000;

const WATCHER = `
const { parentPort, workerData } = require('node:worker_threads');
const deadline = new BigInt64Array(workerData.buffer);
parentPort.postMessage('watching');
for (;;) {
  const at = Atomics.load(deadline, 0);
  if (at < 0n) break;
  if (at > 0n && BigInt(Date.now()) > at) process.kill(workerData.pid, 'SIGKILL');
  Atomics.wait(deadline, 0, at, 1000);
}
`;

/**
 * Starts the thread and resolves once it watches: a thread still starting needs the main thread's
 * event loop, so a job that blocked it at once would never be watched.
 */
export async function startJobWatchdog(graceMs: number = WATCHDOG_GRACE_MS): Promise<JobWatchdog> {
  const buffer = new SharedArrayBuffer(8);
  const deadline = new BigInt64Array(buffer);
  const thread = new Worker(WATCHER, { eval: true, execArgv: [], workerData: { buffer, pid: process.pid } });
  await new Promise<void>((resolve) => {
    thread.once('message', () => resolve());
    // A thread that cannot start leaves the main thread's timer alone to keep the limit.
    thread.once('error', () => resolve());
  });
  // Never what keeps the process alive.
  thread.unref();
  thread.on('error', () => undefined);
  const set = (value: bigint): void => {
    Atomics.store(deadline, 0, value);
    Atomics.notify(deadline, 0);
  };
  return {
    start: (limitMs) => set(BigInt(Date.now() + limitMs + graceMs)),
    end: () => set(0n),
    async close() {
      set(-1n);
      await thread.terminate();
    },
  };
}
