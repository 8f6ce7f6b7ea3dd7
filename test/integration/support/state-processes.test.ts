import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { waitFor } from '../../support/cli.js';
import { processesOf, settleProcessesOf } from '../../support/state-processes.js';

const linux = process.platform === 'linux';

describe.runIf(linux)('the processes of a state dir', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  const lingering = (home: string) => {
    const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { env: { ...process.env, RECALL_HOME: home }, stdio: 'ignore' });
    return child;
  };

  it('finds a process by its RECALL_HOME and not one of another state dir', async () => {
    const home = mkdtempSync(join(tmpdir(), 'recall-procs-'));
    const other = mkdtempSync(join(tmpdir(), 'recall-procs-'));
    dirs.push(home, other);
    const mine = lingering(home);
    const theirs = lingering(other);
    try {
      await waitFor(() => (processesOf(home).includes(mine.pid!) ? true : undefined));
      expect(processesOf(home)).not.toContain(theirs.pid);
    } finally {
      mine.kill('SIGKILL');
      theirs.kill('SIGKILL');
    }
  });

  it('ends what is still running after the grace time, so teardown can remove the folder', async () => {
    const home = mkdtempSync(join(tmpdir(), 'recall-procs-'));
    dirs.push(home);
    const child = lingering(home);
    const exited = new Promise((resolve) => child.once('exit', resolve));
    await waitFor(() => (processesOf(home).length > 0 ? true : undefined));
    await settleProcessesOf(home, 200);
    await exited;
    expect(processesOf(home)).toEqual([]);
  });
});
