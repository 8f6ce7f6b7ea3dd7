/**
 * Which process runs a claimed job. A worker claims a job by renaming it into processing/ under a
 * name that carries its process id and start time; a job is taken back from processing/ only once
 * that process is gone. A worker that is merely slow (CPU-starved, stopped, or asleep past its queue
 * lock's stale time, so another worker took the lock) keeps its job, and no job runs twice at once.
 * Node built-ins only.
 */
import { readFileSync } from 'node:fs';

export interface JobOwner {
  pid: number;
  /** The process start time from /proc (clock ticks since boot) on Linux; '' where there is no /proc. */
  start: string;
}

const SEPARATOR = '@';

let self: JobOwner | undefined;
/** This process, as it signs the jobs it claims and the locks it stamps (read once: it cannot change). */
export function currentOwner(): JobOwner {
  if (self === undefined) {
    const stat = readProcStat(process.pid);
    self = { pid: process.pid, start: typeof stat === 'object' ? stat.start : '' };
  }
  return self;
}

/** `<id>.json` -> `<id>@<pid>-<start>.json`. */
export function ownedName(name: string, owner: JobOwner): string {
  return `${unownedName(name).slice(0, -'.json'.length)}${SEPARATOR}${owner.pid}-${owner.start || '0'}.json`;
}

/** The job's own file name, without a claim. */
export function unownedName(name: string): string {
  const at = name.lastIndexOf(SEPARATOR);
  return at === -1 ? name : `${name.slice(0, at)}.json`;
}

/** The owner a processing/ file name carries, or null (a claim by an older release, or a hand-made file). */
export function ownerOf(name: string): JobOwner | null {
  const match = /@(\d+)-(\d+)\.json$/.exec(name);
  if (!match) return null;
  return { pid: Number(match[1]), start: match[2] === '0' ? '' : match[2]! };
}

/**
 * True while the owner runs. On Linux a zombie counts as gone, and so does a process whose start
 * time differs (its pid was reused). Without /proc only the pid is checked: a reused pid keeps the
 * job in processing/ until that process ends, which delays it but never runs it twice.
 */
export function isOwnerAlive(owner: JobOwner): boolean {
  const stat = readProcStat(owner.pid);
  if (stat === 'gone') return false;
  if (stat === 'unknown') return signalable(owner.pid);
  if (stat.state === 'Z' || stat.state === 'X') return false;
  return owner.start === '' || owner.start === stat.start;
}

type ProcStat = { state: string; start: string } | 'gone' | 'unknown';

function readProcStat(pid: number): ProcStat {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    // No such pid under a mounted /proc; anywhere else (macOS, Windows, no /proc) we cannot tell this way.
    return code === 'ENOENT' && hasProc() ? 'gone' : 'unknown';
  }
  // "pid (comm) state ppid ... starttime ...": comm may hold spaces and parentheses, so split after the last ')'.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  const state = fields[0];
  const start = fields[19]; // field 22 of the whole line
  return state && start ? { state, start } : 'unknown';
}

let procMounted: boolean | undefined;
function hasProc(): boolean {
  if (procMounted === undefined) {
    try {
      readFileSync('/proc/self/stat');
      procMounted = true;
    } catch {
      procMounted = false;
    }
  }
  return procMounted;
}

function signalable(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
