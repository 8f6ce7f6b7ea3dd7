/**
 * Adoption: jobs the SessionEnd hook left in a fallback spool (fallback-spool.ts) move into
 * RECALL_HOME/spool/pending once it has room again. Never a lost or doubled job, with any number
 * of adopters at once and a crash at any step:
 *
 *   1. claim:   rename `<job>.json` to `.claim-<pid>-<job>.json` in the fallback folder (one adopter wins);
 *   2. stage:   the claim becomes `.adopt-<job>.json` in the main pending folder, by rename on one file
 *               system, else by copy to a temp name + fsync + rename (whole or absent); then the folder
 *               is fsynced;
 *   3. release: the claim is unlinked (after a rename it is already gone);
 *   4. publish: `.adopt-<job>.json` is renamed to `<job>.json`, where the worker sees it.
 *
 * The worker ignores dot files, so a job runs only after step 4, by which time no copy is left in
 * the fallback. A staged file found later (a crash after step 2) is finished: its fallback copies are
 * removed, then it is published. A claim whose adopter process is gone becomes a plain job again.
 * When the main folder cannot take a job (still full), the claim is renamed back at once.
 * Node built-ins only.
 */
import { closeSync, fsyncSync, openSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ensureDir, writeFileAtomic } from '../core/atomic-write.js';
import { CLAIM_PATTERN, existingFallbackDirs, fallbackJobNames, fallbackRoots } from './fallback-spool.js';

export interface AdoptionReport {
  /** Jobs now in the main pending folder. */
  adopted: number;
  /** Jobs still in a fallback folder because the main folder could not take them. */
  left: number;
  /** Why jobs were left, one line per failure. */
  problems: string[];
}

const STAGED_PREFIX = '.adopt-';
/** A hook's temp file this old belongs to a write that never finished. */
const TEMP_STALE_MS = 60 * 60 * 1000;

export interface AdoptOptions {
  roots?: readonly string[];
  now?: number;
}

/** Moves every job from `home`'s fallback folders into `pendingDir` (RECALL_HOME/spool/pending). */
export function adoptFallbackJobs(home: string, pendingDir: string, options: AdoptOptions = {}): AdoptionReport {
  const report: AdoptionReport = { adopted: 0, left: 0, problems: [] };
  const dirs = existingFallbackDirs(home, options.roots ?? fallbackRoots());
  const now = options.now ?? Date.now();
  finishStaged(pendingDir, dirs);
  for (const dir of dirs) {
    releaseStaleClaims(dir);
    removeStaleTemps(dir, now);
    const names = fallbackJobNames(dir);
    for (const [i, name] of names.entries()) {
      const result = adoptOne(dir, name, pendingDir);
      if (result === 'adopted') report.adopted += 1;
      if (result === 'adopted' || result === 'taken') continue;
      // The main folder refuses writes (still full, read-only): the rest would fail alike.
      report.left += names.length - i;
      report.problems.push(result.problem);
      break;
    }
  }
  return report;
}

/** Jobs an adoption would pick up now (plain job files and claims of dead adopters). */
export function countFallbackJobs(home: string, options: Pick<AdoptOptions, 'roots'> = {}): number {
  let count = 0;
  for (const dir of existingFallbackDirs(home, options.roots ?? fallbackRoots())) {
    count += fallbackJobNames(dir).length;
    count += listNames(dir).filter((name) => staleClaimJob(name) !== null).length;
  }
  return count;
}

type AdoptResult = 'adopted' | 'taken' | { problem: string };

/** Moves one job; 'taken' when another adopter claimed it first. */
function adoptOne(dir: string, name: string, pendingDir: string): AdoptResult {
  const source = join(dir, name);
  const claim = join(dir, `.claim-${process.pid}-${name}`);
  try {
    renameSync(source, claim);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 'taken';
    return { problem: `cannot claim ${source}: ${(err as Error).message}` };
  }
  const staged = join(pendingDir, `${STAGED_PREFIX}${name}`);
  try {
    ensureDir(pendingDir);
    stage(claim, staged);
    syncDir(pendingDir);
  } catch (err) {
    try {
      renameSync(claim, source);
    } catch {
      // Left as a claim: the next adopter sees its owner is gone and takes it back.
    }
    return { problem: `cannot move ${name} into ${pendingDir}: ${(err as Error).message}` };
  }
  try {
    rmSync(claim, { force: true });
    publish(staged, join(pendingDir, name));
  } catch (err) {
    // Staged whole in the main folder: the next adoption finishes it.
    return { problem: `cannot finish moving ${name} into ${pendingDir}: ${(err as Error).message}` };
  }
  return 'adopted';
}

/** The claim's content as a whole `.adopt-` file in the main folder: rename, or copy across file systems. */
function stage(claim: string, staged: string): void {
  try {
    renameSync(claim, staged);
    return;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
  }
  writeFileAtomic(staged, readFileSync(claim, 'utf8'));
}

function publish(staged: string, file: string): void {
  try {
    renameSync(staged, file);
  } catch (err) {
    // Another adopter finishing a staged file got there first.
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
}

/** Staged files left by an adopter that stopped after step 2: drop their fallback copies, then publish. */
function finishStaged(pendingDir: string, dirs: readonly string[]): void {
  for (const entry of listNames(pendingDir)) {
    if (!entry.startsWith(STAGED_PREFIX) || !entry.endsWith('.json')) continue;
    const name = entry.slice(STAGED_PREFIX.length);
    for (const dir of dirs) {
      rmSync(join(dir, name), { force: true });
      for (const other of listNames(dir)) if (CLAIM_PATTERN.exec(other)?.[2] === name) rmSync(join(dir, other), { force: true });
    }
    try {
      publish(join(pendingDir, entry), join(pendingDir, name));
    } catch {
      // Left staged; the next adoption tries again. It is never run from there, and never copied twice.
    }
  }
}

/** Claims of adopters that died between steps 1 and 3 become plain jobs again. */
function releaseStaleClaims(dir: string): void {
  for (const name of listNames(dir)) {
    const job = staleClaimJob(name);
    if (job === null) continue;
    try {
      renameSync(join(dir, name), join(dir, job));
    } catch {
      // Taken back by another adopter meanwhile.
    }
  }
}

/**
 * The job file name a claim stands for when its adopter process is gone, else null. (No age rule:
 * a live adopter stopped mid-move would then be overtaken and the job copied twice. A claim held by a
 * reused pid waits until that process exits.)
 */
function staleClaimJob(name: string): string | null {
  const match = CLAIM_PATTERN.exec(name);
  return match && !isAlive(Number(match[1])) ? match[2]! : null;
}

function removeStaleTemps(dir: string, now: number): void {
  for (const name of listNames(dir)) {
    if (!name.startsWith('.tmp-')) continue;
    try {
      if (now - statSync(join(dir, name)).mtimeMs > TEMP_STALE_MS) rmSync(join(dir, name), { force: true });
    } catch {
      // Gone meanwhile.
    }
  }
}

function isAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function syncDir(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, 'r');
    fsyncSync(fd);
  } catch {
    // Some platforms cannot fsync a directory; the rename is still atomic there.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

function listNames(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}
