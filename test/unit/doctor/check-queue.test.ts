import { describe, expect, it } from 'vitest';
import { checkQueue } from '../../../src/doctor/check-queue.js';

const NOW = new Date('2026-01-01T12:00:00Z');
const minutesAgo = (m: number) => new Date(NOW.getTime() - m * 60_000);

describe('checkQueue', () => {
  it('passes an empty queue', () => {
    expect(checkQueue({ pending: 0, processing: 0, failed: 0, oldestPendingAt: null }, NOW)).toMatchObject({ status: 'ok', detail: '0 pending, 0 processing, 0 failed' });
  });

  it('passes recent pending jobs and reports how old the oldest one is', () => {
    expect(checkQueue({ pending: 2, processing: 1, failed: 0, oldestPendingAt: minutesAgo(5) }, NOW)).toMatchObject({
      status: 'ok',
      detail: '2 pending (oldest 5 min old), 1 processing, 0 failed',
    });
  });

  it('warns about failed jobs with recall retry as the fix', () => {
    const result = checkQueue({ pending: 0, processing: 0, failed: 3, oldestPendingAt: null }, NOW);
    expect(result.status).toBe('warn');
    expect(result.fix).toMatch(/^recall retry/);
  });

  it('warns when the oldest pending job waited more than an hour', () => {
    const result = checkQueue({ pending: 1, processing: 0, failed: 0, oldestPendingAt: minutesAgo(125) }, NOW);
    expect(result.status).toBe('warn');
    expect(result.detail).toMatch(/oldest 2 h old/);
    expect(result.fix).toMatch(/recall status.*recall drain/);
  });
});
