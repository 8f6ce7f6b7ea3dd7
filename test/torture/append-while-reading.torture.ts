/**
 * Scenario 5: the transcript grows while it is read. A separate writer process appends lines (some
 * split in two writes, so the reader can meet half a line at the end) to a several-MB transcript
 * while `recall capture` and the queue worker read it. No crash, the capture succeeds, and the
 * store holds every rule once.
 */
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, runCli, runHook } from '../support/cli.js';
import { startHarness, type Harness } from '../support/harness.js';
import { checkInvariants, describeReport } from '../support/torture-invariants.js';
import { tortureSession } from '../support/torture-sessions.js';

const ROUNDS = 5;

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ embedder: 'hash' });
});
afterAll(async () => {
  await h.close();
});

/** Appends assistant lines (and, every 50th line, a user line with a fresh rule) for `ms`, splitting every 7th line in two writes. */
const WRITER = `
const { openSync, writeSync, closeSync } = require('node:fs');
const [file, ms, tag] = process.argv.slice(1);
const fd = openSync(file, 'a');
const end = Date.now() + Number(ms);
const pause = new Int32Array(new SharedArrayBuffer(4));
let i = 0;
while (Date.now() < end) {
  i += 1;
  const line = i % 50 === 0
    ? JSON.stringify({ type: 'user', message: { role: 'user', content: 'You MUST keep appended' + tag + 'rule' + i + ' enabled.' }, uuid: 'w' + i })
    : JSON.stringify({ type: 'assistant', message: { id: 'w' + i, role: 'assistant', content: [{ type: 'text', text: 'Still working on step ' + i + ': ' + 'lorem ipsum '.repeat(20) }] }, uuid: 'w' + i });
  if (i % 7 === 0) { const cut = Math.floor(line.length / 2); writeSync(fd, line.slice(0, cut)); writeSync(fd, line.slice(cut) + '\\n'); }
  else writeSync(fd, line + '\\n');
  if (i % 20 === 0) Atomics.wait(pause, 0, 0, 2); // about 10 lines a millisecond: a fast agent, not a disk filler
}
closeSync(fd);
process.stdout.write(String(i));
`;

describe('a transcript appended while it is read', () => {
  it('captures it without a crash or a duplicate, by `recall capture` and by the worker at the same time', async () => {
    const env = { ...h.env, RECALL_HOME: join(h.root, 'append'), RECALL_HOOK_SPAWN: '0' };
    const sessions = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      // A 4 MB transcript, so reading it takes a while.
      const session = tortureSession(h, `append-${round}`, `project-${round % 2}`);
      sessions.push(session);
      const file = session.payload.transcript_path;
      for (let i = 0; i < 40; i += 1) {
        appendFileSync(
          file,
          `${JSON.stringify({ type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: `t${i}`, content: 'x'.repeat(100_000) }] }, uuid: `pad${i}` })}\n`,
        );
      }
      expect((await runHook('session-end', session.payload, { env })).exitCode).toBe(0);

      const writer = execa(process.execPath, ['-e', WRITER, file, '3000', `r${round}x`], { reject: false });
      const capture = runCli(['capture', file, '--cwd', session.payload.cwd, '--session-id', session.sessionId, '--json'], { env, timeoutMs: 120_000 });
      const worker = execa(process.execPath, [CLI, 'worker'], { env, extendEnv: false, reject: false, timeout: 120_000 });
      const [written, captured, worked] = await Promise.all([writer, capture, worker]);
      expect(written.exitCode).toBe(0);
      expect(captured.exitCode, captured.stderr).toBe(0);
      expect(JSON.parse(captured.stdout)).toMatchObject({ status: 'stored' });
      expect(worked.exitCode, worked.stderr).toBe(0);
      console.log(`[torture] append round ${round}: writer appended ${written.stdout} lines during the reads; capture ${JSON.stringify(JSON.parse(captured.stdout)).slice(0, 160)}`);

      // Once more after the writer is done: the grown file adds nothing twice.
      const again = await runCli(['capture', file, '--cwd', session.payload.cwd, '--session-id', session.sessionId, '--json'], { env, timeoutMs: 120_000 });
      expect(again.exitCode, again.stderr).toBe(0);
    }
    const report = await checkInvariants(env, sessions);
    console.log(describeReport('append-while-reading', report));
    expect(report.problems).toEqual([]);
    expect(report.states).toEqual({ captured: ROUNDS, pending: 0, processing: 0, failed: 0 });
  }, 600_000);
});
