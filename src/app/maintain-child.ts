/**
 * Store upkeep in a process of its own, started detached by the worker after a capture when upkeep is
 * due. One at a time (the `maintain` lock; a second one just leaves), compaction under the store lock,
 * and a hard time limit: LanceDB 0.31 can deadlock inside `optimize()` on a big table, and a process
 * that exits releases nothing by hand, so its locks simply go stale and the next writer takes over.
 */
import { spawn } from 'node:child_process';
import { setPriority } from 'node:os';
import { fileURLToPath } from 'node:url';
import { endProcessNow } from '../core/end-process-now.js';
import { describeError } from '../core/errors.js';
import { fileLogger } from '../core/log.js';
import { claimStart, recordStarted, releaseStart } from '../core/start-marker.js';
import { runMaintenance } from '../store/maintain-store.js';
import type { MaintenancePolicy } from '../core/maintenance.js';
import type { StoreLocation } from '../core/store-location.js';
import { tryLock } from '../adapters/file-lock.js';
import { createStoreLock } from '../adapters/store-lock.js';
import { openLanceStore } from '../adapters/lance-store.js';
import { withLeanAllocator } from './lean-allocator.js';

export interface MaintenanceJob {
  /** The store, without credentials: those reach the process through its environment, never its arguments. */
  store: StoreLocationWithoutSecrets;
  /** The state dir that holds the locks. */
  home: string;
  logFile: string;
  policy: MaintenancePolicy;
  lockStaleMs: number;
  /** The process exits after this long whatever it is doing. */
  timeLimitMs: number;
}

const ENTRY = fileURLToPath(import.meta.url);
/** Index training at 1M rows took minutes on 2 cores; a deadlock is ended well after that. */
export const MAINTENANCE_TIME_LIMIT_MS = 30 * 60_000;
/** How long compaction waits for writers to let go of the store lock. */
const STORE_LOCK_WAIT_MS = 60_000;

export type StoreLocationWithoutSecrets = { kind: 'local'; uri: string } | Omit<Extract<StoreLocation, { kind: 's3' }>, 'credentials'>;

/** Environment variable that hands an s3:// store's credentials to the upkeep process. */
const CREDENTIALS_ENV = 'RECALL_MAINTAIN_S3_CREDENTIALS';

/** The name of the upkeep's lock and start marker in the state dir. */
const MAINTAIN_NAME = 'maintain';

/**
 * Starts the upkeep process fully detached (own session, no stdio, not waited for), unless one runs
 * already (start-marker.ts): a burst of captures starts one, not one each. Never throws; true when
 * this call started one.
 */
export function startMaintenanceInBackground(location: StoreLocation, job: Omit<MaintenanceJob, 'store'>, env: NodeJS.ProcessEnv = process.env): boolean {
  if (!claimStart(job.home, MAINTAIN_NAME)) return false;
  try {
    const { store, childEnv } = splitSecrets(location, env);
    const child = spawn(process.execPath, [ENTRY, JSON.stringify({ ...job, store })], { detached: true, stdio: 'ignore', env: withLeanAllocator(childEnv), windowsHide: true });
    child.once('error', () => releaseStart(job.home, MAINTAIN_NAME, null));
    if (child.pid === undefined) {
      releaseStart(job.home, MAINTAIN_NAME, null);
      return false;
    }
    recordStarted(job.home, MAINTAIN_NAME, child.pid);
    lowerPriority(child.pid);
    child.unref();
    return true;
  } catch {
    // Upkeep is best effort; the next capture tries again.
    releaseStart(job.home, MAINTAIN_NAME, null);
    return false;
  }
}

async function main(job: MaintenanceJob): Promise<void> {
  const logger = fileLogger(job.logFile, 'maintain');
  setTimeout(() => {
    logger.log('error', `store maintenance still running after ${job.timeLimitMs} ms; stopping it (LanceDB may be stuck)`);
    // Not process.exit: a thread stuck inside LanceDB could hold the exit (see end-process-now.ts).
    void endProcessNow();
  }, job.timeLimitMs).unref();
  const release = await tryLock(job.home, MAINTAIN_NAME, { waitMs: 0, staleMs: job.lockStaleMs });
  if (!release) return; // another upkeep round is running
  try {
    const location = joinSecrets(job.store, process.env);
    const store = await openLanceStore(location).catch((err: unknown) => {
      logger.log('warn', `store maintenance could not open the store: ${describeError(err)}`);
      return null;
    });
    if (store === null) return;
    await runMaintenance({
      store,
      policy: job.policy,
      withStoreLock: createStoreLock({ home: job.home, location, waitMs: STORE_LOCK_WAIT_MS, staleMs: job.lockStaleMs }),
      logger,
    });
    await store.close();
  } finally {
    await release();
  }
}

/** Background work, like the capture worker (nice 10): it yields to the agent and to the hooks. */
const UPKEEP_PRIORITY = 10;

function lowerPriority(pid: number): void {
  try {
    setPriority(pid, UPKEEP_PRIORITY);
  } catch {
    // Gone already, or not ours to change: it runs at the normal priority.
  }
}

function splitSecrets(location: StoreLocation, env: NodeJS.ProcessEnv): { store: StoreLocationWithoutSecrets; childEnv: NodeJS.ProcessEnv } {
  if (location.kind === 'local') return { store: location, childEnv: env };
  const { credentials, ...store } = location;
  return { store, childEnv: { ...env, [CREDENTIALS_ENV]: JSON.stringify(credentials) } };
}

function joinSecrets(store: StoreLocationWithoutSecrets, env: NodeJS.ProcessEnv): StoreLocation {
  if (store.kind === 'local') return store;
  const credentials = JSON.parse(env[CREDENTIALS_ENV] ?? 'null') as Extract<StoreLocation, { kind: 's3' }>['credentials'] | null;
  if (credentials === null) throw new Error(`the upkeep process of ${store.uri} was started without credentials`);
  return { ...store, credentials };
}

if (process.argv[1] === ENTRY) {
  const job = JSON.parse(process.argv[2] ?? '{}') as MaintenanceJob;
  main(job).then(
    () => {
      releaseStart(job.home, MAINTAIN_NAME, process.pid);
      process.exit(0);
    },
    () => {
      releaseStart(job.home, MAINTAIN_NAME, process.pid);
      process.exit(1);
    },
  );
}
