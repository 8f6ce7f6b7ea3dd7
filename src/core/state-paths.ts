/**
 * Where recall keeps its state. Node built-ins only: the hooks import this.
 * Layout under RECALL_HOME (default ~/.recall), directories 0700, files 0600.
 */
import { chmodSync, mkdirSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { RecallError } from './errors.js';

export interface StatePaths {
  home: string;
  configFile: string;
  logFile: string;
  historyFile: string;
  spoolPending: string;
  spoolProcessing: string;
  spoolFailed: string;
  workerLock: string;
  dbDir: string;
  modelsDir: string;
  contextDir: string;
  /** The last counts of memories per project and type, with the table state they were read at. */
  groupCountsFile: string;
}

export function resolveHome(env: NodeJS.ProcessEnv): string {
  const fromEnv = env.RECALL_HOME?.trim();
  return fromEnv ? resolve(fromEnv) : join(homedir(), '.recall');
}

export function statePaths(home: string): StatePaths {
  return {
    home,
    configFile: join(home, 'config.json'),
    logFile: join(home, 'recall.log'),
    historyFile: join(home, 'history.jsonl'),
    spoolPending: join(home, 'spool', 'pending'),
    spoolProcessing: join(home, 'spool', 'processing'),
    spoolFailed: join(home, 'spool', 'failed'),
    workerLock: join(home, 'worker'),
    dbDir: join(home, 'db'),
    modelsDir: join(home, 'models'),
    contextDir: join(home, 'context'),
    groupCountsFile: join(home, 'group-counts.json'),
  };
}

/**
 * The state dir as every command finds it: created if needed and private (0700). One that already is
 * 0700 is left alone, so a state dir on a read-only file system still serves the commands that only read.
 * One owned by another user is refused (STATE_UNSAFE), never made private for them and used. The
 * state dir itself may be a symlink to a folder of the user's (another disk); the folders in it may not.
 */
export function ensureStateDir(home: string): void {
  let uid: number;
  try {
    mkdirSync(home, { recursive: true, mode: 0o700 });
    uid = statSync(home).uid;
  } catch (err) {
    throw new RecallError('STATE_UNWRITABLE', `cannot use the state dir ${home}: ${(err as Error).message}`, { cause: err });
  }
  const own = currentUid();
  if (own !== null && uid !== own) {
    throw new RecallError('STATE_UNSAFE', `the state dir ${home} is owned by uid ${uid}, not by you (uid ${own}); set RECALL_HOME to a folder of your own`);
  }
  try {
    if ((statSync(home).mode & 0o777) !== 0o700) chmodSync(home, 0o700);
  } catch (err) {
    throw new RecallError('STATE_UNWRITABLE', `cannot use the state dir ${home}: ${(err as Error).message}`, { cause: err });
  }
}

/** This process's user id, or null where there is none (Windows). */
export function currentUid(): number | null {
  return typeof process.getuid === 'function' ? process.getuid() : null;
}
