import { Command } from 'commander';
import { afterEach, describe, expect, it } from 'vitest';
import { executeCli } from '../../../src/cli/program.js';
import { setExitCode, withTerminal, type Terminal } from '../../../src/cli/terminal.js';

/** A program like recall's: `fail` reports a failure through setExitCode, `ok` does not and ends later. */
function program(): Command {
  const p = new Command('recall').exitOverride();
  p.command('fail').action(async () => {
    await new Promise((resolve) => setTimeout(resolve, 5));
    setExitCode(3);
  });
  p.command('ok').action(async () => {
    await new Promise((resolve) => setTimeout(resolve, 30));
  });
  return p;
}

function terminal(): Terminal {
  return { write: () => undefined, columns: undefined, isTTY: false, noColor: true, cwd: process.cwd() };
}

const served = (command: string) => withTerminal(terminal(), () => executeCli(['node', 'recall', command], program()));

describe('executeCli exit codes', () => {
  afterEach(() => {
    process.exitCode = undefined;
  });

  it('keeps a served request exit code to that request', async () => {
    expect(await served('fail')).toBe(3);
    expect(await served('ok')).toBe(0);
    expect(process.exitCode).toBeUndefined();
  });

  it('keeps the codes of requests that run at once apart', async () => {
    expect(await Promise.all([served('fail'), served('ok'), served('fail'), served('ok')])).toEqual([3, 0, 3, 0]);
  });

  it('sets the process exit code outside a served request', async () => {
    expect(await executeCli(['node', 'recall', 'fail'], program())).toBe(3);
    expect(process.exitCode).toBe(3);
  });
});
