import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
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

  it.each([0, 1_000])('takes the lock without an error while another process keeps removing the lock folder, as a stale holder releasing or a racing takeover does (wait %i ms)', async (waitMs) => {
    const dir = tempDir();
    const lockDir = join(dir, 'worker.lock');
    // Removes the lock folder every millisecond for 1.5 s, hitting the instant between mkdir and its first touch.
    const remover = execa(process.execPath, ['-e', `const fs = require('fs'); const t = setInterval(() => { try { fs.rmdirSync(${JSON.stringify(lockDir)}); } catch {} }, 1); setTimeout(() => clearInterval(t), 1500);`]);
    let taken = 0;
    const problems: string[] = [];
    while (remover.exitCode === null) {
      try {
        const release = await tryLock(dir, 'worker', { waitMs, staleMs: 10_000 });
        if (release) {
          taken += 1;
          await release();
        }
      } catch (err) {
        problems.push((err as Error).message);
      }
    }
    await remover;
    expect(problems.slice(0, 3)).toEqual([]);
    expect(taken).toBeGreaterThan(100);
  });
});
