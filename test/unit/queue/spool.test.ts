import { readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { statePaths } from '../../../src/core/state-paths.js';
import { newCaptureJob } from '../../../src/queue/job.js';
import { Spool } from '../../../src/queue/spool.js';
import { useTempDirs } from '../../support/temp-dir.js';

const tempDir = useTempDirs();

function job(n: number) {
  return newCaptureJob({ sessionId: `s${n}`, transcriptPath: `/t${n}`, cwd: null, agent: 'claude', reason: null }, new Date(1_700_000_000_000 + n));
}

describe('Spool', () => {
  it('writes job files 0600 inside 0700 folders, leaving no temp files', () => {
    const paths = statePaths(tempDir());
    const file = new Spool(paths).enqueue(job(1));
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(paths.spoolPending).mode & 0o777).toBe(0o700);
    expect(readdirSync(paths.spoolPending)).toEqual([file.split('/').pop()]);
  });

  it('hands out the oldest due job first and skips those waiting for a retry', () => {
    const spool = new Spool(statePaths(tempDir()));
    spool.enqueue({ ...job(1), notBefore: '2999-01-01T00:00:00Z' });
    spool.enqueue(job(2));
    spool.enqueue(job(3));
    expect(spool.nextDue(new Date(), false)?.job?.sessionId).toBe('s2');
    expect(spool.nextDue(new Date(), true)?.job?.sessionId).toBe('s1');
    expect(spool.nextRetryAt()?.getTime()).toBe(0);
  });

  it('moves a job between folders so it is always in exactly one', () => {
    const spool = new Spool(statePaths(tempDir()));
    spool.enqueue(job(1));
    const claimed = spool.move(spool.nextDue(new Date(), false)!, 'processing');
    expect(spool.counts()).toEqual({ pending: 0, processing: 1, failed: 0 });
    spool.updateAndMove(claimed, { ...claimed.job!, attempts: 1, lastError: 'x' }, 'failed');
    expect(spool.counts()).toEqual({ pending: 0, processing: 0, failed: 1 });
    expect(spool.list('failed')[0]?.job?.attempts).toBe(1);
  });

  it('claims a job under a name that carries its owner, and drops the claim when the job moves on', () => {
    const paths = statePaths(tempDir());
    const spool = new Spool(paths);
    const queued = job(1);
    spool.enqueue(queued);
    const { id } = queued;
    const claimed = spool.claim(spool.nextDue(new Date(), false)!, { pid: 4242, start: '77' });
    expect(readdirSync(paths.spoolProcessing)).toEqual([`${id}@4242-77.json`]);
    expect(spool.list('processing')[0]?.job?.id).toBe(id);
    spool.move(claimed, 'pending');
    expect(readdirSync(paths.spoolPending)).toEqual([`${id}.json`]);
    // A second claim of the same entry finds it gone: only one worker can hold a job.
    const entry = spool.nextDue(new Date(), false)!;
    spool.claim(entry, { pid: 1, start: '' });
    expect(() => spool.claim(entry, { pid: 2, start: '' })).toThrow();
  });

  it('sets a damaged job file aside instead of blocking the queue', () => {
    const paths = statePaths(tempDir());
    const spool = new Spool(paths);
    spool.enqueue(job(2));
    writeFileSync(join(paths.spoolPending, '000000000-broken.json'), '{not json');
    expect(spool.nextDue(new Date(), false)?.job?.sessionId).toBe('s2');
    expect(spool.counts()).toEqual({ pending: 1, processing: 0, failed: 1 });
  });

  it('ignores temp files left by an interrupted write', () => {
    const paths = statePaths(tempDir());
    const spool = new Spool(paths);
    spool.enqueue(job(1));
    writeFileSync(join(paths.spoolPending, '.tmp-x.json-abcd'), '{');
    expect(spool.names('pending')).toHaveLength(1);
  });
});
