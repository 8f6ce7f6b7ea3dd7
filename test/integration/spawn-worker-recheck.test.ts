import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { claimStart } from '../../src/core/start-marker.js';
import { spawnDetachedWorker, WORKER_NAME } from '../../src/hook/spawn-worker.js';

describe('starting the capture worker', () => {
  const homes: string[] = [];
  afterEach(() => {
    for (const home of homes.splice(0)) rmSync(home, { recursive: true, force: true });
  });
  const freshHome = () => {
    const home = mkdtempSync(join(tmpdir(), 'recall-spawn-'));
    homes.push(home);
    return home;
  };

  it('asks again once the start is claimed, and starts nothing (leaving the start free) when the worker is no longer needed', async () => {
    const home = freshHome();
    const notNeeded = vi.fn(() => true);
    await expect(spawnDetachedWorker(process.env, home, home, notNeeded)).resolves.toBe('not needed');
    expect(notNeeded).toHaveBeenCalledTimes(1);
    // No marker left behind: the next caller can claim the start at once.
    expect(readdirSync(home).filter((name) => name.startsWith(WORKER_NAME))).toEqual([]);
    expect(claimStart(home, WORKER_NAME)).toBe(true);
  });

  it('does not ask while another caller holds the start', async () => {
    const home = freshHome();
    expect(claimStart(home, WORKER_NAME)).toBe(true);
    const notNeeded = vi.fn(() => true);
    await expect(spawnDetachedWorker(process.env, home, home, notNeeded)).resolves.toBe('running');
    expect(notNeeded).not.toHaveBeenCalled();
  });
});
