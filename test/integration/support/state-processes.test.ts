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

  it('finds a process by its RECALL_HOME in the folder, not one of a folder beside it', async () => {
    const root = mkdtempSync(join(tmpdir(), 'recall-procs-'));
    dirs.push(root);
    const mine = lingering(join(root, 'home'));
    const nested = lingering(join(root, 'add-corpus'));
    const beside = lingering(`${root}-other`);
    try {
      await waitFor(() => (processesOf(root).includes(mine.pid!) && processesOf(root).includes(nested.pid!) ? true : undefined));
      expect(processesOf(root)).not.toContain(beside.pid);
    } finally {
      for (const child of [mine, nested, beside]) child.kill('SIGKILL');
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
