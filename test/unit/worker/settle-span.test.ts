import { appendFileSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isRecallError } from '../../../src/core/errors.js';
import { newCaptureJob, type Agent } from '../../../src/queue/job.js';
import { markCaptured } from '../../../src/queue/session-ledger.js';
import { settleSpan, type SettleClock, type SettleTiming } from '../../../src/worker/settle-span.js';
import { useTempDirs } from '../../support/temp-dir.js';

const tempDir = useTempDirs();
const TIMING: SettleTiming = { quietMs: 3_000, maxWaitMs: 30_000, pollMs: 250 };

const line = (type: string, data: Record<string, unknown> = {}): string => `${JSON.stringify({ type, data, id: type })}\n`;
const START = line('session.start') + line('user.message', { content: 'Hello there.' });
const REPLY = line('assistant.message', { content: 'You must always run the linter before committing.' });
const SHUTDOWN = line('session.shutdown', { shutdownType: 'routine' });

/** A clock that only moves when the settling sleeps; `onSleep` runs at each sleep (the agent writing meanwhile). */
function fakeClock(onSleep: (slept: number) => void = () => undefined): SettleClock & { slept: number } {
  let now = 1_000_000;
  const clock = {
    slept: 0,
    now: () => now,
    sleep: async (ms: number) => {
      now += ms;
      clock.slept += 1;
      onSleep(clock.slept);
    },
  };
  return clock;
}

function world(agent: Agent = 'copilot', text = START) {
  const home = tempDir();
  const dir = join(tempDir(), 'session-state', 's1');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'events.jsonl');
  writeFileSync(file, text);
  const job = { ...newCaptureJob({ sessionId: 's1', transcriptPath: file, cwd: null, agent, reason: 'routine' }), uncovered: true };
  return { home, file, job };
}

describe('settleSpan', () => {
  it('takes the reply the agent wrote after its SessionEnd hook ran, once the file has stopped growing', async () => {
    const { home, file, job } = world('unknown');
    const clock = fakeClock((n) => {
      if (n === 2) appendFileSync(file, REPLY);
    });
    const settled = await settleSpan(home, job, TIMING, clock);
    expect(settled).toMatchObject({ fromByte: 0, toByte: statSync(file).size, how: 'quiet' });
    // Quiet counts from the last change: the append restarted it.
    expect(settled.waitedMs).toBeGreaterThanOrEqual(2 * TIMING.pollMs + TIMING.quietMs);
  });

  it("stops waiting at Copilot's session.shutdown written past the covered bytes", async () => {
    const { home, file, job } = world('copilot', START + REPLY + SHUTDOWN);
    const clock = fakeClock();
    expect(await settleSpan(home, job, TIMING, clock)).toMatchObject({ fromByte: 0, toByte: statSync(file).size, how: 'closed', waitedMs: 0 });
    expect(clock.slept).toBe(0);
  });

  it('starts after the bytes a capture covered, and does not take an old session.shutdown for the end of a resumed session', async () => {
    const first = START + REPLY + SHUTDOWN;
    const { home, file, job } = world('copilot', first);
    markCaptured(home, 's1', file, Buffer.byteLength(first));
    const resumed = line('session.resume') + line('user.message', { content: 'Never force push.' });
    const clock = fakeClock((n) => {
      if (n === 1) appendFileSync(file, resumed);
      if (n === 3) appendFileSync(file, SHUTDOWN);
    });
    const settled = await settleSpan(home, job, TIMING, clock);
    expect(settled).toMatchObject({ fromByte: Buffer.byteLength(first), toByte: statSync(file).size, how: 'closed' });
  });

  it('gives no span when nothing past the covered bytes came', async () => {
    const { home, file, job } = world('copilot', START + SHUTDOWN);
    markCaptured(home, 's1', file, statSync(file).size);
    expect(await settleSpan(home, job, TIMING, fakeClock())).toMatchObject({ toByte: null, how: 'quiet' });
  });

  it('stops waiting for a file that never stops growing, and leaves its unfinished last line for a later capture', async () => {
    const { home, file, job } = world('unknown');
    const clock = fakeClock(() => appendFileSync(file, `${REPLY}{"type":"assistant.mes`));
    const settled = await settleSpan(home, job, TIMING, clock);
    expect(settled.how).toBe('bounded');
    expect(settled.waitedMs).toBeLessThanOrEqual(TIMING.maxWaitMs + TIMING.pollMs);
    const size = statSync(file).size;
    expect(settled.toByte).toBe(size - Buffer.byteLength('{"type":"assistant.mes'));
  });

  it('says the file is missing (a retried error) while it is not there', async () => {
    const { home, job } = world();
    const missing = { ...job, transcriptPath: join(tempDir(), 'gone', 'events.jsonl') };
    const error = await settleSpan(home, missing, TIMING, fakeClock()).catch((err: unknown) => err);
    expect(isRecallError(error, 'TRANSCRIPT_MISSING')).toBe(true);
  });
});
