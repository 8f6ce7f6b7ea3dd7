import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tryLock, withLock } from '../../../src/worker/locks.js';
import { isRecallError } from '../../../src/core/errors.js';
import { useTempDirs } from '../../support/temp-dir.js';

const tempDir = useTempDirs();

describe('locks', () => {
  it('refuses a second holder of the same lock', async () => {
    const dir = tempDir();
    const first = await tryLock(dir, 'worker', { waitMs: 0, staleMs: 10_000 });
    expect(first).not.toBeNull();
    expect(await tryLock(dir, 'worker', { waitMs: 0, staleMs: 10_000 })).toBeNull();
    await first!();
    const again = await tryLock(dir, 'worker', { waitMs: 0, staleMs: 10_000 });
    expect(again).not.toBeNull();
    await again!();
  });

  it('releases two named locks in one folder independently', async () => {
    const dir = tempDir();
    const worker = await tryLock(dir, 'worker', { waitMs: 0, staleMs: 10_000 });
    await withLock(dir, 'store', { waitMs: 0, staleMs: 10_000 }, async () => {
      expect(existsSync(join(dir, 'store.lock'))).toBe(true);
    });
    expect(existsSync(join(dir, 'store.lock'))).toBe(false);
    expect(existsSync(join(dir, 'worker.lock'))).toBe(true);
    await worker!();
    expect(existsSync(join(dir, 'worker.lock'))).toBe(false);
  });

  it('waits for a lock to be released within the wait time', async () => {
    const dir = tempDir();
    const first = await tryLock(dir, 'store', { waitMs: 0, staleMs: 10_000 });
    setTimeout(() => void first!(), 300);
    const value = await withLock(dir, 'store', { waitMs: 5_000, staleMs: 10_000 }, async () => 'ran');
    expect(value).toBe('ran');
  });

  it('reports LOCK_HELD when the wait runs out', async () => {
    const dir = tempDir();
    const first = await tryLock(dir, 'store', { waitMs: 0, staleMs: 10_000 });
    await expect(withLock(dir, 'store', { waitMs: 300, staleMs: 10_000 }, async () => 'never')).rejects.toSatisfy((err) => isRecallError(err, 'LOCK_HELD'));
    await first!();
  });
});
