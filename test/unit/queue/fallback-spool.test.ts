import { chmodSync, chownSync, lstatSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { newCaptureJob, parseJob } from '../../../src/queue/job.js';
import {
  checkPrivateDir,
  enqueueFallback,
  existingFallbackDirs,
  fallbackJobNames,
  fallbackPendingDir,
  privateDir,
} from '../../../src/queue/fallback-spool.js';
import { useTempDirs } from '../../support/temp-dir.js';

const tempDir = useTempDirs();
const isRoot = process.getuid?.() === 0;

function job(n: number) {
  return newCaptureJob({ sessionId: `s${n}`, transcriptPath: `/t${n}.jsonl`, cwd: null, agent: 'claude', reason: null });
}

describe('enqueueFallback', () => {
  it('writes the job 0600 into a private 0700 folder under the first root, keyed by the state dir', () => {
    const root = tempDir();
    const home = join(tempDir(), 'home');
    const queued = job(1);
    const file = enqueueFallback(queued, home, [root]);
    expect(dirname(file)).toBe(fallbackPendingDir(root, home));
    expect(parseJob(readFileSync(file, 'utf8'))).toEqual(queued);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(privateDir(root)).mode & 0o777).toBe(0o700);
    expect(statSync(dirname(file)).mode & 0o777).toBe(0o700);
    expect(readdirSync(dirname(file))).toEqual([`${queued.id}.json`]);
  });

  it('gives two state dirs two separate fallback folders', () => {
    const root = tempDir();
    expect(fallbackPendingDir(root, '/a/home')).not.toBe(fallbackPendingDir(root, '/b/home'));
    enqueueFallback(job(1), '/a/home', [root]);
    expect(existingFallbackDirs('/a/home', [root])).toHaveLength(1);
    expect(existingFallbackDirs('/b/home', [root])).toEqual([]);
  });

  it('refuses a private folder that is a symlink and uses the next root', () => {
    const [evil, target, good] = [tempDir(), tempDir(), tempDir()];
    symlinkSync(target, privateDir(evil));
    const file = enqueueFallback(job(1), '/h', [evil, good]);
    expect(file.startsWith(good)).toBe(true);
    expect(readdirSync(target)).toEqual([]);
    expect(checkPrivateDir(privateDir(evil))).toMatch(/symlink/);
  });

  it('refuses a private folder that other users can write into', () => {
    const [open, good] = [tempDir(), tempDir()];
    mkdirSync(privateDir(open), { mode: 0o700 });
    chmodSync(privateDir(open), 0o777);
    const file = enqueueFallback(job(1), '/h', [open, good]);
    expect(file.startsWith(good)).toBe(true);
    expect(readdirSync(privateDir(open))).toEqual([]);
    expect(checkPrivateDir(privateDir(open))).toMatch(/open to other users/);
  });

  it.skipIf(!isRoot)('refuses a private folder owned by another user', () => {
    const [foreign, good] = [tempDir(), tempDir()];
    mkdirSync(privateDir(foreign), { mode: 0o700 });
    chownSync(privateDir(foreign), 65534, 65534);
    const file = enqueueFallback(job(1), '/h', [foreign, good]);
    expect(file.startsWith(good)).toBe(true);
    expect(checkPrivateDir(privateDir(foreign))).toMatch(/belongs to uid 65534/);
  });

  it('throws with every root it tried when none can take the job', () => {
    const notADir = join(tempDir(), 'file');
    writeFileSync(notADir, 'x');
    expect(() => enqueueFallback(job(1), '/h', [notADir, join(tempDir(), 'missing', 'deeper')])).toThrow(/no fallback spool could take the job: .*file.*missing/);
  });

  it('never creates anything when only looking', () => {
    const root = tempDir();
    expect(existingFallbackDirs('/h', [root])).toEqual([]);
    expect(() => lstatSync(privateDir(root))).toThrow(/ENOENT/);
  });

  it('lists job files only, not temp files or claims', () => {
    const root = tempDir();
    const file = enqueueFallback(job(1), '/h', [root]);
    writeFileSync(join(dirname(file), '.tmp-x.json-1234'), '{');
    writeFileSync(join(dirname(file), `.claim-1-${job(2).id}.json`), '{}');
    expect(fallbackJobNames(dirname(file))).toEqual([file.split('/').pop()]);
  });
});
