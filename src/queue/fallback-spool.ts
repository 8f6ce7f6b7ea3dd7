/**
 * The fallback spool: where the SessionEnd hook puts a job when RECALL_HOME/spool/pending cannot take
 * it (a full disk, a quota, a read-only or failing file system), so the session is still queued. It
 * sits on other file systems (the temp folder, /var/tmp, /dev/shm), in a private folder per user,
 * `<root>/recall-<uid>/` (0700; refused when it is a symlink, owned by someone else or open to others),
 * with one subfolder per state dir. The worker, `recall drain` and `recall status` adopt the jobs into
 * the main spool once it has room again (see adopt-fallback.ts). Node built-ins only: the hook loads this.
 */
import { createHash } from 'node:crypto';
import { lstatSync, mkdirSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureDir, writeFileAtomic } from '../core/atomic-write.js';
import type { CaptureJob } from './job.js';

/** Claim files: `.claim-<pid>-<job file name>`, a job an adopter is moving right now. */
export const CLAIM_PATTERN = /^\.claim-(\d+)-(.+\.json)$/;

/** Where fallback spools may live, in the order the hook tries them; the adopters look in all of them. */
export function fallbackRoots(): string[] {
  const roots = [tmpdir()];
  if (process.platform !== 'win32') roots.push('/var/tmp', '/dev/shm');
  return [...new Set(roots)];
}

/** The user's private folder under `root` (not checked or created here). */
export function privateDir(root: string): string {
  return join(root, `recall-${userId()}`);
}

/** The fallback pending folder for the state dir `home` under `root`. */
export function fallbackPendingDir(root: string, home: string): string {
  const key = createHash('sha256').update(home).digest('hex').slice(0, 16);
  return join(privateDir(root), `spool-${key}`, 'pending');
}

/** Why the private folder cannot be trusted, or null when it is ours alone (or `missing`). */
export function checkPrivateDir(dir: string): 'missing' | string | null {
  let stat;
  try {
    stat = lstatSync(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 'missing';
    return `cannot inspect ${dir}: ${(err as Error).message}`;
  }
  if (stat.isSymbolicLink()) return `${dir} is a symlink`;
  if (!stat.isDirectory()) return `${dir} is not a directory`;
  const uid = process.getuid?.();
  if (uid !== undefined && stat.uid !== uid) return `${dir} belongs to uid ${stat.uid}, not ${uid}`;
  if ((stat.mode & 0o077) !== 0) return `${dir} is open to other users (mode ${(stat.mode & 0o777).toString(8)})`;
  return null;
}

/**
 * The fallback pending folder under `root`, ready to write into, or why not. The private folder is
 * created 0700 when missing (never through a symlink: mkdir does not follow one, and an existing
 * one is refused).
 */
export function openFallbackDir(root: string, home: string): { dir: string } | { problem: string } {
  const own = privateDir(root);
  let problem = checkPrivateDir(own);
  if (problem === 'missing') {
    try {
      mkdirSync(own, { mode: 0o700 });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') return { problem: `cannot create ${own}: ${(err as Error).message}` };
    }
    problem = checkPrivateDir(own);
  }
  if (problem !== null) return { problem };
  const dir = fallbackPendingDir(root, home);
  try {
    ensureDir(dir);
  } catch (err) {
    return { problem: `cannot create ${dir}: ${(err as Error).message}` };
  }
  return { dir };
}

/**
 * Writes the job into the first fallback root that takes it (temp name, fsync, rename, 0600) and
 * returns the file; throws with every root's problem when none does.
 */
export function enqueueFallback(job: CaptureJob, home: string, roots: readonly string[] = fallbackRoots()): string {
  const problems: string[] = [];
  for (const root of roots) {
    const opened = openFallbackDir(root, home);
    if ('problem' in opened) {
      problems.push(opened.problem);
      continue;
    }
    const file = join(opened.dir, `${job.id}.json`);
    try {
      writeFileAtomic(file, JSON.stringify(job));
      return file;
    } catch (err) {
      problems.push(`${file}: ${(err as Error).message}`);
    }
  }
  throw new Error(`no fallback spool could take the job: ${problems.join('; ')}`);
}

/**
 * The fallback pending folders of `home` that exist and are safe to read, one per root. Never creates
 * anything, so a look costs a few lstat calls.
 */
export function existingFallbackDirs(home: string, roots: readonly string[] = fallbackRoots()): string[] {
  const dirs: string[] = [];
  for (const root of roots) {
    if (checkPrivateDir(privateDir(root)) !== null) continue;
    const dir = fallbackPendingDir(root, home);
    try {
      if (lstatSync(dir).isDirectory()) dirs.push(dir);
    } catch {
      // Nothing ever fell back under this root.
    }
  }
  return dirs;
}

/** Job file names waiting in a fallback folder (temp files and claims left out). */
export function fallbackJobNames(dir: string): string[] {
  try {
    return readdirSync(dir).filter((name) => name.endsWith('.json') && !name.startsWith('.')).sort();
  } catch {
    return [];
  }
}

function userId(): string {
  const uid = process.getuid?.();
  return uid === undefined ? 'user' : String(uid);
}
