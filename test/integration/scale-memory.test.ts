/**
 * Scale: a 200 MB transcript is streamed, never read whole, so capture's memory stays bounded.
 * Runs the built CLI as a subprocess and measures its peak resident set size.
 */
import { closeSync, existsSync, openSync, readFileSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI } from '../support/cli.js';
import { startHarness, type Harness } from '../support/harness.js';

const TARGET_BYTES = 200 * 1024 * 1024;
/** Generous: Node plus LanceDB and the app take ~150 MB; reading the file whole would add 400 MB or more. */
const MAX_RSS_MB = 400;
const GNU_TIME = '/usr/bin/time';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ embedder: 'hash' });
});
afterAll(async () => {
  await h?.close();
});

/** Writes a Claude Code transcript of about `bytes`: the rules first, then big tool results and answers. */
function writeBigTranscript(file: string, bytes: number): number {
  const common = { isSidechain: false, userType: 'external', cwd: '/work/x', sessionId: 'big', version: '2.1.39' };
  const line = (record: object) => `${JSON.stringify(record)}\n`;
  const rules = line({ type: 'user', message: { role: 'user', content: 'Set it up. You MUST use pnpm, never npm. Always run integration tests before a release.' }, ...common, uuid: 'u0' });
  const chunk = 'drwxr-xr-x  2 dev dev 4096 Jan  1 00:00 some-directory-name\n'.repeat(1_600);
  const toolUse = (k: number) => line({ type: 'assistant', message: { id: `m${k}`, role: 'assistant', content: [{ type: 'tool_use', id: `t${k}`, name: 'Bash', input: { command: `ls -la dir${k}` } }] }, ...common, uuid: `a${k}` });
  const toolResult = (k: number) => line({ type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: `t${k}`, content: `run ${k}\n${chunk}` }] }, ...common, uuid: `r${k}` });
  const fd = openSync(file, 'w');
  try {
    let written = writeSync(fd, rules);
    for (let k = 1; written < bytes; k += 1) written += writeSync(fd, toolUse(k) + toolResult(k));
    written += writeSync(fd, line({ type: 'assistant', message: { id: 'end', role: 'assistant', content: [{ type: 'text', text: 'Done.' }] }, ...common, uuid: 'end' }));
    return written;
  } finally {
    closeSync(fd);
  }
}

/** Peak RSS of a finished child, from GNU time's report (kB), or from polling /proc while it runs. */
async function runMeasured(args: string[], env: NodeJS.ProcessEnv): Promise<{ exitCode: number; stdout: string; peakMb: number }> {
  if (existsSync(GNU_TIME)) {
    const result = await execa(GNU_TIME, ['-v', process.execPath, CLI, ...args], { env, extendEnv: false, reject: false, timeout: 60_000 });
    const kb = /Maximum resident set size \(kbytes\): (\d+)/.exec(String(result.stderr))?.[1];
    return { exitCode: result.exitCode ?? -1, stdout: String(result.stdout), peakMb: Number(kb) / 1024 };
  }
  const child = execa(process.execPath, [CLI, ...args], { env, extendEnv: false, reject: false, timeout: 60_000 });
  let peakKb = 0;
  const timer = setInterval(() => {
    try {
      const kb = /VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1];
      peakKb = Math.max(peakKb, Number(kb ?? 0));
    } catch {
      // Gone already.
    }
  }, 20);
  const result = await child;
  clearInterval(timer);
  return { exitCode: result.exitCode ?? -1, stdout: String(result.stdout), peakMb: peakKb / 1024 };
}

describe('capture of a 200 MB transcript', () => {
  it('streams the file: completes with bounded memory and stores the rules', async () => {
    const file = join(h.root, 'big.jsonl');
    const bytes = writeBigTranscript(file, TARGET_BYTES);
    expect(statSync(file).size).toBe(bytes);
    expect(bytes).toBeGreaterThanOrEqual(TARGET_BYTES);

    const started = Date.now();
    const result = await runMeasured(['capture', file, '--cwd', h.project('big'), '--session-id', 'big', '--json'], h.env);
    const ms = Date.now() - started;
    console.info(`capture of ${(bytes / 2 ** 20).toFixed(0)} MB: ${ms} ms, peak RSS ${result.peakMb.toFixed(0)} MB`);

    expect(result.exitCode).toBe(0);
    const output = JSON.parse(result.stdout) as { status: string; inserted: Array<{ content: string }> };
    expect(output.status).toBe('stored');
    expect(output.inserted.map((m) => m.content).join(' ')).toContain('pnpm');
    expect(result.peakMb).toBeGreaterThan(0);
    expect(result.peakMb).toBeLessThan(MAX_RSS_MB);
  }, 60_000);
});
