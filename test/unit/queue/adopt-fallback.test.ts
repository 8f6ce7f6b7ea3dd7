import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { statePaths } from '../../../src/core/state-paths.js';
import { adoptFallbackJobs, countFallbackJobs } from '../../../src/queue/adopt-fallback.js';
import { enqueueFallback, fallbackPendingDir } from '../../../src/queue/fallback-spool.js';
import { newCaptureJob, parseJob, type CaptureJob } from '../../../src/queue/job.js';
import { Spool } from '../../../src/queue/spool.js';
import { useTempDirs } from '../../support/temp-dir.js';

const tempDir = useTempDirs();

function job(n: number): CaptureJob {
  return newCaptureJob({ sessionId: `s${n}`, transcriptPath: `/t${n}.jsonl`, cwd: null, agent: 'claude', reason: null });
}

/** A state dir and a fallback root, plus what sits where. */
function world(root = tempDir()) {
  const home = join(tempDir(), 'home');
  const paths = statePaths(home);
  const spool = new Spool(paths);
  return {
    home,
    root,
    paths,
    spool,
    fallbackDir: fallbackPendingDir(root, home),
    adopt: () => adoptFallbackJobs(home, paths.spoolPending, { roots: [root] }),
    pendingIds: () => spool.list('pending').map((e) => e.job?.id),
    fallbackFiles: () => (existsSync(fallbackPendingDir(root, home)) ? readdirSync(fallbackPendingDir(root, home)) : []),
  };
}

function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', '0']);
  return child.pid!;
}

describe('adoptFallbackJobs', () => {
  it('moves every fallback job into pending/ whole and 0600, leaving the fallback empty', () => {
    const w = world();
    const jobs = [job(1), job(2), job(3)];
    for (const j of jobs) enqueueFallback(j, w.home, [w.root]);
    expect(countFallbackJobs(w.home, { roots: [w.root] })).toBe(3);
    const report = w.adopt();
    expect(report).toEqual({ adopted: 3, left: 0, problems: [] });
    expect(w.pendingIds().sort()).toEqual(jobs.map((j) => j.id).sort());
    for (const entry of w.spool.list('pending')) {
      expect(entry.job).toEqual(jobs.find((j) => j.id === entry.job?.id));
      expect(statSync(entry.file).mode & 0o777).toBe(0o600);
    }
    expect(readdirSync(w.paths.spoolPending).filter((n) => n.startsWith('.'))).toEqual([]);
    expect(w.fallbackFiles()).toEqual([]);
    expect(countFallbackJobs(w.home, { roots: [w.root] })).toBe(0);
  });

  it('has nothing to do when no hook ever fell back', () => {
    const w = world();
    expect(w.adopt()).toEqual({ adopted: 0, left: 0, problems: [] });
    expect(existsSync(w.paths.spoolPending)).toBe(false);
  });

  const otherFs = existsSync('/dev/shm') && statSync('/dev/shm').dev !== statSync(tempDir()).dev;
  describe.skipIf(!otherFs)('across file systems', () => {
    const shmDirs: string[] = [];
    afterEach(() => {
      for (const dir of shmDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
    });

    it('copies, syncs and renames the job into pending/, then removes the fallback copy', () => {
      const root = mkdtempSync('/dev/shm/recall-test-');
      shmDirs.push(root);
      const w = world(root);
      const queued = job(1);
      enqueueFallback(queued, w.home, [root]);
      expect(w.adopt()).toEqual({ adopted: 1, left: 0, problems: [] });
      expect(w.spool.list('pending').map((e) => e.job)).toEqual([queued]);
      expect(statSync(w.spool.list('pending')[0]!.file).mode & 0o777).toBe(0o600);
      expect(w.fallbackFiles()).toEqual([]);
    });
  });

  it('leaves the job in the fallback, once, when pending/ cannot take it, and adopts it when it can', () => {
    const w = world();
    const queued = job(1);
    enqueueFallback(queued, w.home, [w.root]);
    // The state dir's spool is unusable (a file where the folder should be), as on a broken disk.
    mkdirSync(w.home, { recursive: true });
    writeFileSync(join(w.home, 'spool'), 'not a folder');
    const stuck = w.adopt();
    expect(stuck.adopted).toBe(0);
    expect(stuck.left).toBe(1);
    expect(stuck.problems[0]).toMatch(/cannot move .* into/);
    expect(w.fallbackFiles()).toEqual([`${queued.id}.json`]);
    expect(parseJob(readFileSync(join(w.fallbackDir, `${queued.id}.json`), 'utf8'))).toEqual(queued);

    rmSync(join(w.home, 'spool'));
    expect(w.adopt()).toEqual({ adopted: 1, left: 0, problems: [] });
    expect(w.pendingIds()).toEqual([queued.id]);
    expect(w.fallbackFiles()).toEqual([]);
  });

  it('finishes a move an adopter left half done, without a second copy', () => {
    const w = world();
    const queued = job(1);
    const file = enqueueFallback(queued, w.home, [w.root]);
    // Crash after staging a copy in pending/ but before the fallback copy was removed.
    new Spool(w.paths).enqueue(job(99)); // pending/ exists
    writeFileSync(join(w.paths.spoolPending, `.adopt-${queued.id}.json`), readFileSync(file));
    renameSync(file, join(dirname(file), `.claim-${deadPid()}-${queued.id}.json`));
    w.adopt();
    expect(w.pendingIds().filter((id) => id === queued.id)).toHaveLength(1);
    expect(readdirSync(w.paths.spoolPending).filter((n) => n.startsWith('.'))).toEqual([]);
    expect(w.fallbackFiles()).toEqual([]);
  });

  it('takes back a job claimed by an adopter that died before moving it', () => {
    const w = world();
    const queued = job(1);
    const file = enqueueFallback(queued, w.home, [w.root]);
    renameSync(file, join(dirname(file), `.claim-${deadPid()}-${queued.id}.json`));
    expect(countFallbackJobs(w.home, { roots: [w.root] })).toBe(1);
    expect(w.adopt().adopted).toBe(1);
    expect(w.pendingIds()).toEqual([queued.id]);
    expect(w.fallbackFiles()).toEqual([]);
  });

  it('leaves alone a job a live adopter is moving', () => {
    const w = world();
    const queued = job(1);
    const file = enqueueFallback(queued, w.home, [w.root]);
    const claim = join(dirname(file), `.claim-${process.ppid}-${queued.id}.json`);
    renameSync(file, claim);
    expect(countFallbackJobs(w.home, { roots: [w.root] })).toBe(0);
    expect(w.adopt()).toEqual({ adopted: 0, left: 0, problems: [] });
    expect(existsSync(claim)).toBe(true);
    expect(w.pendingIds()).toEqual([]);
  });

  it('removes temp files of hook writes that never finished, once they are old', () => {
    const w = world();
    enqueueFallback(job(1), w.home, [w.root]);
    const temp = join(w.fallbackDir, '.tmp-x.json-abcd');
    writeFileSync(temp, '{');
    adoptFallbackJobs(w.home, w.paths.spoolPending, { roots: [w.root] });
    expect(existsSync(temp)).toBe(true);
    adoptFallbackJobs(w.home, w.paths.spoolPending, { roots: [w.root], now: Date.now() + 2 * 60 * 60 * 1000 });
    expect(existsSync(temp)).toBe(false);
  });
});
