/**
 * The state dir is the user's own or it is refused: its folders must be real folders (never symlinks),
 * owned by this user and not writable by group or others, and files recall appends to are opened
 * without following a symlink. Node built-ins only: the hooks use it.
 */
import { closeSync, constants, lstatSync, openSync, statSync, writeFileSync, type Stats } from 'node:fs';
import { dirname } from 'node:path';
import { RecallError } from './errors.js';
import { currentUid, type StatePaths } from './state-paths.js';

/** This process's user id; null where there is none (Windows), and then owners are not compared. */

/**
 * What makes a folder recall keeps state in unsafe to use: a symlink (unless `link` allows one), a
 * foreign owner, write access for group or others. Null when there is none, and also when the folder
 * is not there, cannot be looked at or is not a folder: using it then fails on its own, with the
 * error (and the fallback spool) that belongs to that.
 */
export function folderProblem(path: string, { link = false }: { link?: boolean } = {}): string | null {
  let info: Stats;
  try {
    info = link ? statSync(path) : lstatSync(path);
  } catch {
    return null;
  }
  if (info.isSymbolicLink()) return `${path} is a symlink; recall does not follow links inside its state dir`;
  if (!info.isDirectory()) return null;
  return ownerProblem(path, info);
}

/** A foreign owner or a folder group/others may write into; null when neither. */
export function ownerProblem(path: string, info: Pick<Stats, 'uid' | 'mode'>): string | null {
  const uid = currentUid();
  if (uid !== null && info.uid !== uid) return `${path} is owned by uid ${info.uid}, not by you (uid ${uid})`;
  if ((info.mode & 0o022) !== 0) return `${path} is writable by group or others (mode ${(info.mode & 0o777).toString(8).padStart(3, '0')})`;
  return null;
}

/** The folders under the state dir that recall reads and writes. */
export function stateFolders(paths: StatePaths): string[] {
  return [dirname(paths.spoolPending), paths.spoolPending, paths.spoolProcessing, paths.spoolFailed, paths.dbDir, paths.contextDir, paths.modelsDir];
}

/** Every problem with the state dir (which may be a symlink) and the folders in it that exist. */
export function stateFolderProblems(paths: StatePaths): string[] {
  return [folderProblem(paths.home, { link: true }), ...stateFolders(paths).map((path) => folderProblem(path))].flatMap((p) => p ?? []);
}

/** Throws STATE_UNSAFE naming the first problem with the state folders. */
export function assertStateFolders(paths: StatePaths): void {
  const [problem] = stateFolderProblems(paths);
  if (problem !== undefined) throw new RecallError('STATE_UNSAFE', `${problem}; move it away (recall makes a private one) or set RECALL_HOME to a folder of your own`);
}

/**
 * Appends to a private file (0600) without following a symlink at its path: a link planted where
 * the log or the history goes fails with ELOOP instead of writing into the file it points at.
 */
export function appendPrivateFile(file: string, text: string): void {
  const fd = openSync(file, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW, 0o600);
  try {
    // writeFileSync on a descriptor writes it all (a bare writeSync may stop short).
    writeFileSync(fd, text);
  } finally {
    closeSync(fd);
  }
}
