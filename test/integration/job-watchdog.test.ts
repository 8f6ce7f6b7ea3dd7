/**
 * The job time limit's backstop: a job stuck in synchronous work never lets the main thread's timer
 * fire, so a thread of its own kills the process. Runs the built module in a real child process.
 */
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';

const WATCHDOG = fileURLToPath(new URL('../../dist/worker/job-watchdog.js', import.meta.url));

function runChild(body: string) {
  const script = `import { startJobWatchdog } from ${JSON.stringify(WATCHDOG)};\nconst watchdog = await startJobWatchdog(100);\n${body}`;
  return execa(process.execPath, ['--input-type=module', '-e', script], { reject: false, timeout: 60_000 });
}

describe('the job watchdog', () => {
  it('kills a process whose job blocks the main thread past its limit', async () => {
    const child = await runChild('watchdog.start(200);\nfor (;;) {}');
    expect(child.timedOut).toBe(false);
    expect(child.signal).toBe('SIGKILL');
  });

  it('leaves a process alone once its job has ended, however long it then stays busy', async () => {
    const child = await runChild(
      'watchdog.start(200);\nwatchdog.end();\nconst until = Date.now() + 1500;\nwhile (Date.now() < until) {}\nawait watchdog.close();\nconsole.log("done");',
    );
    expect(child.signal).toBeUndefined();
    expect(child.exitCode).toBe(0);
    expect(child.stdout).toBe('done');
  });
});
