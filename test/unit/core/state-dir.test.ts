import { chmodSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/load-config.js';
import { ensureStateDir } from '../../../src/core/state-paths.js';
import { useTempDirs } from '../../support/temp-dir.js';

const tempDir = useTempDirs();
const modeOf = (path: string) => statSync(path).mode & 0o777;

describe('ensureStateDir', () => {
  it('creates a missing state dir, and its parents, private', () => {
    const home = join(tempDir(), 'a', 'recall');
    ensureStateDir(home);
    expect(statSync(home).isDirectory()).toBe(true);
    expect(modeOf(home)).toBe(0o700);
  });

  it('makes an existing state dir that others can read private', () => {
    const home = tempDir();
    chmodSync(home, 0o755);
    ensureStateDir(home);
    expect(modeOf(home)).toBe(0o700);
  });

  it('reports a state dir it cannot create as a coded error naming it', () => {
    const file = join(tempDir(), 'a-file');
    writeFileSync(file, '');
    const home = join(file, 'recall');
    expect(() => ensureStateDir(home)).toThrow(expect.objectContaining({ code: 'STATE_UNWRITABLE', message: expect.stringMatching(new RegExp(`^cannot use the state dir ${home}: ENOTDIR`)) }));
  });

  it('leaves a private state dir alone (no chmod, so a read-only file system is no obstacle)', async () => {
    const home = tempDir();
    chmodSync(home, 0o700);
    const before = statSync(home, { bigint: true }).ctimeNs;
    // chmod sets ctime even when the mode stays the same; wait long enough for the clock to move.
    await new Promise((resolve) => setTimeout(resolve, 20));
    ensureStateDir(home);
    expect(statSync(home, { bigint: true }).ctimeNs).toBe(before);
  });
});

describe('a state dir that is a file', () => {
  it('is named as such by every command that loads the config', () => {
    const file = join(tempDir(), 'recall-home');
    writeFileSync(file, 'not a folder');
    expect(() => loadConfig({ RECALL_HOME: file })).toThrow(
      expect.objectContaining({ code: 'STATE_UNWRITABLE', message: `the state dir ${file} is a file, not a folder: point RECALL_HOME at a folder` }),
    );
  });

  it('still reports other unreadable config files as they are', () => {
    const home = tempDir();
    mkdirSync(join(home, 'config.json'));
    expect(() => loadConfig({ RECALL_HOME: home })).toThrow(/cannot read .*config\.json: EISDIR/);
  });
});
