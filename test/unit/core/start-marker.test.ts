import { existsSync, mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { claimStart, isRunningOrStarting, markerPath, recordStarted, releaseOrKeep, releaseStart, STARTING_STALE_MS } from '../../../src/core/start-marker.js';
import { useTempDirs } from '../../support/temp-dir.js';

const tempDir = useTempDirs();
/** A pid no process has (above the kernel's pid_max). */
const GONE_PID = 2 ** 22 + 17;

describe('start markers', () => {
  it('lets one of many racing starters win, and the others see it starting', () => {
    const home = tempDir();
    const wins = Array.from({ length: 50 }, () => claimStart(home, 'worker')).filter(Boolean);
    expect(wins).toHaveLength(1);
    expect(isRunningOrStarting(home, 'worker')).toBe(true);
  });

  it('counts a started process as running while it lives, and lets the next start once it is gone', () => {
    const home = tempDir();
    expect(claimStart(home, 'worker')).toBe(true);
    recordStarted(home, 'worker', process.pid);
    expect(claimStart(home, 'worker', Date.now() + 10 * STARTING_STALE_MS)).toBe(false);
    recordStarted(home, 'worker', GONE_PID);
    expect(isRunningOrStarting(home, 'worker')).toBe(false);
    expect(claimStart(home, 'worker')).toBe(true);
  });

  it('takes over a marker whose starter died before it could write a pid, once it is stale', () => {
    const home = tempDir();
    expect(claimStart(home, 'worker')).toBe(true);
    expect(claimStart(home, 'worker')).toBe(false);
    const old = (Date.now() - 2 * STARTING_STALE_MS) / 1000;
    utimesSync(markerPath(home, 'worker'), old, old);
    expect(claimStart(home, 'worker')).toBe(true);
  });

  it('leaves a process alone whose lock is fresh, marker or not', () => {
    const home = tempDir();
    mkdirSync(join(home, 'worker.lock'));
    expect(claimStart(home, 'worker')).toBe(false);
    expect(isRunningOrStarting(home, 'worker')).toBe(true);
  });

  it('is removed by the process it names, never by another', () => {
    const home = tempDir();
    writeFileSync(markerPath(home, 'maintain'), String(process.pid));
    releaseStart(home, 'maintain', GONE_PID);
    expect(existsSync(markerPath(home, 'maintain'))).toBe(true);
    releaseStart(home, 'maintain', process.pid);
    expect(existsSync(markerPath(home, 'maintain'))).toBe(false);
  });
});

describe('a process that runs out of work', () => {
  it('lets go of its marker and leaves when no work came', () => {
    const home = tempDir();
    expect(claimStart(home, 'worker')).toBe(true);
    recordStarted(home, 'worker', process.pid);
    expect(releaseOrKeep(home, 'worker', process.pid, () => false)).toBe(false);
    expect(existsSync(markerPath(home, 'worker'))).toBe(false);
  });

  it('carries on, holding its marker again, when work came while it let go, so no starter starts a second one', () => {
    const home = tempDir();
    expect(claimStart(home, 'worker')).toBe(true);
    recordStarted(home, 'worker', process.pid);
    expect(releaseOrKeep(home, 'worker', process.pid, () => true)).toBe(true);
    expect(claimStart(home, 'worker')).toBe(false);
    expect(isRunningOrStarting(home, 'worker')).toBe(true);
  });

  it('leaves the work to a starter that claimed the marker in between', () => {
    const home = tempDir();
    expect(claimStart(home, 'worker')).toBe(true);
    recordStarted(home, 'worker', process.pid);
    let starterWon = false;
    const kept = releaseOrKeep(home, 'worker', process.pid, () => {
      starterWon = claimStart(home, 'worker'); // a hook queues a job and claims while the marker is gone
      return true;
    });
    expect(starterWon).toBe(true);
    expect(kept).toBe(false);
    expect(existsSync(markerPath(home, 'worker'))).toBe(true);
  });
});
