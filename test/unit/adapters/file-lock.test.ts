import { existsSync, mkdirSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { HARD_STALE_FACTOR, tryLock, withLock } from '../../../src/adapters/file-lock.js';
import { isRecallError } from '../../../src/core/errors.js';
import { useTempDirs } from '../../support/temp-dir.js';

const tempDir = useTempDirs();
/** The built module, for a second process (`npm test` builds before it tests). */
const DIST_LOCKS = new URL('../../../dist/adapters/file-lock.js', import.meta.url).href;

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

  describe('kept from a live holder (the store lock)', () => {
    const STALE = 5_000;
    const keep = { waitMs: 0, staleMs: STALE, keepFromLiveHolder: true };

    function age(lockDir: string, ms: number): void {
      const then = new Date(Date.now() - ms);
      utimesSync(lockDir, then, then);
    }

    it('stays with its holder past the stale time while the holder runs', async () => {
      const dir = tempDir();
      const held = await tryLock(dir, 'store', keep);
      expect(readdirSync(join(dir, 'store.lock'))).toEqual([expect.stringMatching(new RegExp(`^holder@${process.pid}-\\d+\\.json$`))]);
      age(join(dir, 'store.lock'), 3 * STALE);
      expect(await tryLock(dir, 'store', keep)).toBeNull();
      await held!();
      expect(existsSync(join(dir, 'store.lock'))).toBe(false);
    });

    it('is waited for while its holder runs, and taken once released', async () => {
      const dir = tempDir();
      const held = await tryLock(dir, 'store', keep);
      age(join(dir, 'store.lock'), 3 * STALE);
      setTimeout(() => void held!(), 500);
      const started = Date.now();
      const taken = await tryLock(dir, 'store', { ...keep, waitMs: 5_000 });
      expect(taken).not.toBeNull();
      expect(Date.now() - started).toBeGreaterThanOrEqual(400);
      await taken!();
    });

    it('is taken over once stale when its holder is gone', async () => {
      const dir = tempDir();
      const gone = await execa(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
      mkdirSync(join(dir, 'store.lock'));
      writeFileSync(join(dir, 'store.lock', `holder@${gone.stdout}-0.json`), '');
      age(join(dir, 'store.lock'), 2 * STALE);
      const taken = await tryLock(dir, 'store', keep);
      expect(taken).not.toBeNull();
      expect(readdirSync(join(dir, 'store.lock'))).toEqual([expect.stringContaining(`holder@${process.pid}-`)]);
      await taken!();
    });

    it('is not taken over before the stale time even when its holder is gone', async () => {
      const dir = tempDir();
      mkdirSync(join(dir, 'store.lock'));
      writeFileSync(join(dir, 'store.lock', 'holder@999999999-0.json'), '');
      expect(await tryLock(dir, 'store', keep)).toBeNull();
    });

    it(`is taken over from a running holder after ${HARD_STALE_FACTOR} stale times, when it is stuck rather than slow`, async () => {
      const dir = tempDir();
      const stuck = await tryLock(dir, 'store', keep);
      age(join(dir, 'store.lock'), (HARD_STALE_FACTOR + 1) * STALE);
      const taken = await tryLock(dir, 'store', { ...keep, waitMs: 2_000 });
      expect(taken).not.toBeNull();
      await taken!();
      await stuck!();
    });

    it('survives the late release of the holder it replaced', async () => {
      const dir = tempDir();
      const lockDir = join(dir, 'store.lock');
      const late = await tryLock(dir, 'store', keep);
      age(lockDir, (HARD_STALE_FACTOR + 1) * STALE);
      // Another process takes the lock over and holds it until its stdin closes.
      const script = `import { tryLock } from ${JSON.stringify(DIST_LOCKS)}; const r = await tryLock(${JSON.stringify(dir)}, 'store', { waitMs: 5000, staleMs: ${STALE}, keepFromLiveHolder: true }); process.stdout.write(r ? 'taken' : 'held'); process.stdin.resume(); process.stdin.on('end', async () => { await r?.(); });`;
      const other = execa(process.execPath, ['--input-type=module', '-e', script]);
      await new Promise<void>((resolve) => other.stdout!.once('data', () => resolve()));
      await late!();
      expect(readdirSync(lockDir)).toEqual([expect.stringContaining(`holder@${other.pid}-`)]);
      other.stdin!.end();
      expect((await other).stdout).toBe('taken');
      expect(existsSync(lockDir)).toBe(false);
    });
  });
});
