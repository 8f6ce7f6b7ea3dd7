/** A reader that goes away (`recall stats | head -1`) ends the output, not the command: no stack trace, exit 0. */
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, runCli } from '../support/cli.js';
import { startHarness, type Harness } from '../support/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ embedder: 'hash' });
});
afterAll(async () => h.close());

describe('output into a closed pipe', () => {
  it.each(['stats', 'status', 'config list', 'list', 'export'])('recall %s | true exits 0 without a stack trace', async (command) => {
    const env = h.env;
    expect((await runCli(['add', 'Use pnpm for installs.'], { env })).exitCode).toBe(0);
    // `true` exits without reading, so every write after it lands on a closed pipe.
    const script = `"${process.execPath}" "${BIN}" ${command} | true; exit "\${PIPESTATUS[0]}"`;
    const result = await execa('bash', ['-c', script], { env, extendEnv: false, reject: false });
    expect(result.stderr).not.toMatch(/EPIPE|Error|at /);
    expect(result.exitCode).toBe(0);
  });
});
