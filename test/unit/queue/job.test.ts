import { describe, expect, it } from 'vitest';
import { isDue, newCaptureJob, newJobId, parseJob, retryDelayMs } from '../../../src/queue/job.js';

describe('capture jobs', () => {
  it('gives ids that sort by creation time', () => {
    const earlier = newJobId(new Date('2026-01-01T00:00:00Z'));
    const later = newJobId(new Date('2026-01-01T00:00:01Z'));
    expect([later, earlier].sort()).toEqual([earlier, later]);
  });

  it('gives distinct ids in the same millisecond: time, then 40 random bits in hex', () => {
    const now = new Date('2026-01-01T00:00:00Z');
    const ids = Array.from({ length: 10_000 }, () => newJobId(now));
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids.slice(0, 100)) expect(id).toMatch(/^[0-9a-z]{9}-[0-9a-f]{10}$/);
  });

  it('round-trips a job through JSON', () => {
    const job = newCaptureJob({ sessionId: 's', transcriptPath: '/t', cwd: null, agent: 'claude', reason: 'exit' });
    expect(parseJob(JSON.stringify(job))).toEqual(job);
  });

  it('refuses files that are not jobs', () => {
    expect(parseJob('{')).toBeNull();
    expect(parseJob('{"version":2,"id":"x","transcriptPath":"/t","attempts":0}')).toBeNull();
    expect(parseJob('{"version":1,"id":"x","attempts":0}')).toBeNull();
  });

  it('is due once its retry time has passed', () => {
    const job = { ...newCaptureJob({ sessionId: null, transcriptPath: '/t', cwd: null, agent: 'unknown', reason: null }), notBefore: '2026-01-01T00:01:00Z' };
    expect(isDue(job, new Date('2026-01-01T00:00:59Z'))).toBe(false);
    expect(isDue(job, new Date('2026-01-01T00:01:00Z'))).toBe(true);
  });

  it('doubles the retry delay per attempt up to six hours', () => {
    expect([1, 2, 3].map((n) => retryDelayMs(n, 30_000))).toEqual([30_000, 60_000, 120_000]);
    expect(retryDelayMs(40, 30_000)).toBe(6 * 60 * 60 * 1000);
  });
});
