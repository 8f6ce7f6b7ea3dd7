/** A local store whose newest table version is damaged: clear errors, nothing lost, `recall repair`. */
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { damagedHead } from '../../src/adapters/lance-versions.js';
import { runCli, runHook } from '../support/cli.js';
import { startHarness, type Harness } from '../support/harness.js';

let h: Harness;
let env: NodeJS.ProcessEnv;
let tableDir: string;

beforeEach(async () => {
  h = await startHarness({ embedder: 'hash' });
  env = { ...h.env, RECALL_HOOK_SPAWN: 'false' };
  tableDir = join(h.home, 'db', 'memories.lance');
});
afterEach(() => h.close());

async function ids(): Promise<string[]> {
  const listed = await runCli(['list', '--json', '--limit', '100'], { env });
  expect(listed.exitCode, listed.stderr).toBe(0);
  return (JSON.parse(listed.stdout) as { id: string }[]).map((m) => m.id).sort();
}

describe('a damaged newest table version', () => {
  it('is named with the way out, keeps captures queued and the SessionStart context served, and recall repair brings the table back', async () => {
    const project = h.project('shop');
    await runHook('session-end', { session_id: 's1', transcript_path: h.session('s1', ['You MUST use pnpm.', 'You MUST store money as integer cents.']), cwd: project }, { env });
    expect((await runCli(['drain'], { env })).exitCode).toBe(0);
    const before = await ids();
    expect(before).toHaveLength(2);

    // A crash or a full disk left the newest manifest cut short.
    const newest = damagedHead(tableDir).lastGood;
    if (newest === null) throw new Error('no version files');
    writeFileSync(newest.path, Buffer.alloc(100, 0x5a));

    const search = await runCli(['search', 'pnpm'], { env });
    expect(search.exitCode).toBe(1);
    expect(search.stderr).toBe(`recall: the newest version of the memory table in ${join(h.home, 'db')} is damaged (v${newest.version}: unreadable manifest); run \`recall repair\` to set it aside and go back to v${newest.version - 1n}\n`);

    // A session that ends now is kept in the queue, not lost.
    await runHook('session-end', { session_id: 's2', transcript_path: h.session('s2', ['You MUST never deploy on Fridays.']), cwd: project }, { env });
    const drained = await runCli(['drain'], { env });
    expect(drained.exitCode).toBe(1);
    expect(drained.stdout).toMatch(/: retry, STORE_CORRUPT: the newest version of the memory table/);
    // The next session still gets its context from the last rendered file.
    const start = JSON.parse((await runHook('session-start', { session_id: 's3', cwd: project, source: 'startup' }, { env })).stdout) as { hookSpecificOutput?: { additionalContext?: string } };
    expect(start.hookSpecificOutput?.additionalContext).toContain('You MUST use pnpm.');
    const doctor = JSON.parse((await runCli(['doctor', '--json'], { env })).stdout) as { checks: { id: string; status: string; fix?: string }[] };
    expect(doctor.checks.find((c) => c.id === 'store')).toMatchObject({ status: 'fail', fix: expect.stringMatching(/^recall repair/) });

    const dry = await runCli(['repair', '--dry-run'], { env });
    expect(dry.stdout).toBe(`would set aside v${newest.version} and go back to v${newest.version - 1n} (dry run: nothing changed)\n`);
    expect(existsSync(newest.path)).toBe(true);

    const repaired = await runCli(['repair', '--json'], { env });
    expect(repaired.exitCode, repaired.stderr).toBe(0);
    const report = JSON.parse(repaired.stdout) as { setAside: number[]; dir: string; backTo: number; memories: number };
    expect(report).toMatchObject({ setAside: [Number(newest.version)], backTo: Number(newest.version - 1n) });
    // Set aside, not deleted.
    expect(readdirSync(report.dir)).toContain(newest.path.split('/').pop());
    expect(existsSync(newest.path)).toBe(false);

    const after = await ids();
    expect(after.every((id) => before.includes(id))).toBe(true);
    expect(after).toHaveLength(report.memories);
    expect((await runCli(['drain'], { env })).exitCode).toBe(0);
    const contents = (JSON.parse((await runCli(['list', '--json'], { env })).stdout) as { content: string }[]).map((m) => m.content);
    expect(contents).toContain('You MUST never deploy on Fridays.');
    expect((await runCli(['repair'], { env })).stdout).toMatch(/reads whole, text index included; nothing to repair\n$/);
  }, 90_000);
});
