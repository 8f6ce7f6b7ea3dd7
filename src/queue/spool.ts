/**
 * The on-disk queue: pending/ (waiting, maybe with a retry time), processing/ (claimed by one
 * worker, whose process the file name carries; see job-owner.ts), failed/ (gave up; `recall retry`
 * moves them back). Every move is a rename, so a job is always in exactly one folder. Node built-ins only.
 */
import { readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { StatePaths } from '../core/state-paths.js';
import { ensureDir, writeFileAtomic } from '../core/atomic-write.js';
import { isDue, parseJob, type CaptureJob } from './job.js';
import { ownedName, unownedName, type JobOwner } from '../core/job-owner.js';

export type SpoolFolder = 'pending' | 'processing' | 'failed';

export interface SpoolEntry {
  folder: SpoolFolder;
  file: string;
  job: CaptureJob | null;
}

export class Spool {
  constructor(private readonly paths: Pick<StatePaths, 'spoolPending' | 'spoolProcessing' | 'spoolFailed'>) {}

  dir(folder: SpoolFolder): string {
    if (folder === 'pending') return this.paths.spoolPending;
    if (folder === 'processing') return this.paths.spoolProcessing;
    return this.paths.spoolFailed;
  }

  enqueue(job: CaptureJob): string {
    const file = join(this.dir('pending'), `${job.id}.json`);
    writeFileAtomic(file, JSON.stringify(job));
    return file;
  }

  /** Writes a job straight into failed/: a SessionEnd payload that could not be read, kept with its reason. */
  keepFailed(job: CaptureJob): string {
    const file = join(this.dir('failed'), `${job.id}.json`);
    writeFileAtomic(file, JSON.stringify(job));
    return file;
  }

  /** Job file names in a folder, oldest first; temp files and strays are ignored. */
  names(folder: SpoolFolder): string[] {
    try {
      return readdirSync(this.dir(folder))
        .filter((name) => name.endsWith('.json') && !name.startsWith('.'))
        .sort();
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw err;
    }
  }

  read(folder: SpoolFolder, name: string): SpoolEntry {
    const file = join(this.dir(folder), name);
    let job: CaptureJob | null = null;
    try {
      job = parseJob(readFileSync(file, 'utf8'));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
    return { folder, file, job };
  }

  list(folder: SpoolFolder): SpoolEntry[] {
    return this.names(folder).map((name) => this.read(folder, name));
  }

  /** The oldest pending job `wanted` accepts; files that are not jobs are set aside on the way. */
  nextPending(wanted: (job: CaptureJob) => boolean): SpoolEntry | null {
    for (const name of this.names('pending')) {
      const entry = this.read('pending', name);
      if (entry.job === null) {
        this.quarantine(entry);
        continue;
      }
      if (wanted(entry.job)) return entry;
    }
    return null;
  }

  /** The oldest pending job that is due (or any pending job when `ignoreBackoff`). */
  nextDue(now: Date, ignoreBackoff: boolean): SpoolEntry | null {
    return this.nextPending((job) => ignoreBackoff || isDue(job, now));
  }

  /** Earliest retry time among pending jobs, or null when nothing waits. */
  nextRetryAt(): Date | null {
    let earliest: number | null = null;
    for (const entry of this.list('pending')) {
      if (!entry.job) continue;
      const at = entry.job.notBefore ? Date.parse(entry.job.notBefore) : 0;
      if (earliest === null || at < earliest) earliest = at;
    }
    return earliest === null ? null : new Date(earliest);
  }

  /** Moves a pending job to processing/ under a name that carries its owner; throws when it is gone (taken by another worker). */
  claim(entry: SpoolEntry, owner: JobOwner): SpoolEntry {
    return this.rename(entry, 'processing', ownedName(fileName(entry), owner));
  }

  /** Moves a job between folders by rename, dropping any claim from its name; returns the new path. */
  move(entry: SpoolEntry, to: SpoolFolder): SpoolEntry {
    return this.rename(entry, to, unownedName(fileName(entry)));
  }

  private rename(entry: SpoolEntry, to: SpoolFolder, name: string): SpoolEntry {
    ensureDir(this.dir(to));
    const file = join(this.dir(to), name);
    renameSync(entry.file, file);
    return { folder: to, file, job: entry.job };
  }

  /** Rewrites a job in place (atomically). */
  update(entry: SpoolEntry, job: CaptureJob): SpoolEntry {
    writeFileAtomic(entry.file, JSON.stringify(job));
    return { ...entry, job };
  }

  /** Rewrites a job, then moves it: a crash in between leaves the updated job where it was. */
  updateAndMove(entry: SpoolEntry, job: CaptureJob, to: SpoolFolder): SpoolEntry {
    return this.move(this.update(entry, job), to);
  }

  remove(entry: SpoolEntry): void {
    rmSync(entry.file, { force: true });
  }

  /** A file that is not a job (damaged by hand, or a foreign file) goes to failed/ rather than blocking the queue. */
  private quarantine(entry: SpoolEntry): void {
    try {
      this.move(entry, 'failed');
    } catch {
      // Vanished meanwhile: nothing to keep.
    }
  }

  counts(): Record<SpoolFolder, number> {
    return {
      pending: this.names('pending').length,
      processing: this.names('processing').length,
      failed: this.names('failed').length,
    };
  }

  /** Age of the oldest job in a folder, from its file time. */
  oldest(folder: SpoolFolder): Date | null {
    const [first] = this.names(folder);
    if (!first) return null;
    try {
      return statSync(join(this.dir(folder), first)).mtime;
    } catch {
      return null;
    }
  }
}

function fileName(entry: SpoolEntry): string {
  return basename(entry.file);
}
