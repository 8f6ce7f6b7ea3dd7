/**
 * Damage inside a local memory table that recall can recover from: an unreadable data file (every
 * row that can still be read is kept, the loss is reported) and a text index that no longer loads
 * (rebuilt). The built CLI as a subprocess against a real LanceDB store in a temp dir.
 */
import { readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
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

const RULES = ['You MUST use pnpm, never npm.', 'You MUST store money as integer cents.', 'You MUST never deploy on Fridays.'];

/** Three memories added one by one: three data files, one per write. */
async function addThree(): Promise<string[]> {
  for (const rule of RULES) {
    const added = await runCli(['add', rule], { env });
    expect(added.exitCode, added.stderr).toBe(0);
  }
  return ids();
}

async function ids(): Promise<string[]> {
  const listed = await runCli(['list', '--json', '--limit', '100'], { env });
  expect(listed.exitCode, listed.stderr).toBe(0);
  return (JSON.parse(listed.stdout) as { id: string }[]).map((m) => m.id).sort();
}

function overwrite(path: string): void {
  writeFileSync(path, Buffer.alloc(Math.max(64, statSync(path).size), 0x5a));
}

interface DoctorCheck {
  id: string;
  status: string;
  detail: string;
  fix?: string;
}

async function storeCheck(): Promise<DoctorCheck | undefined> {
  const doctor = await runCli(['doctor', '--json'], { env });
  return (JSON.parse(doctor.stdout) as { checks: DoctorCheck[] }).checks.find((c) => c.id === 'store');
}

describe('an unreadable data file', () => {
  it('gives one-line errors, fails doctor, and recall repair keeps every row that can still be read and reports the loss', async () => {
    const before = await addThree();
    expect(before).toHaveLength(3);
    const [victim] = readdirSync(join(tableDir, 'data'));
    overwrite(join(tableDir, 'data', victim!));

    const listed = await runCli(['list'], { env });
    expect(listed.exitCode).toBe(1);
    expect(listed.stderr.split('\n').filter(Boolean)).toHaveLength(1);
    expect(listed.stderr).toBe(`recall: 1 of 3 memories in ${join(h.home, 'db')} cannot be read (1 damaged data file); run \`recall repair\` to keep the rest\n`);
    const exported = await runCli(['export'], { env });
    expect(exported.exitCode).toBe(1);
    expect(exported.stderr).toMatch(/cannot be read \(1 damaged data file\); run `recall repair`/);

    expect(await storeCheck()).toMatchObject({ status: 'fail', detail: expect.stringMatching(/1 of 3 memories cannot be read \(1 damaged data file\)/), fix: expect.stringMatching(/^recall repair/) });

    const dry = await runCli(['repair', '--dry-run'], { env });
    expect(dry.exitCode, dry.stderr).toBe(0);
    expect(dry.stdout).toMatch(/1 data file cannot be read: would keep the 2 memories that can still be read; 1 would be lost \(dry run/);
    expect(readdirSync(join(tableDir, 'data'))).toContain(victim);

    const repaired = await runCli(['repair', '--json'], { env });
    expect(repaired.exitCode, repaired.stderr).toBe(0);
    const report = JSON.parse(repaired.stdout) as { data: { kept: number; lost: number; dataSetAside: string } };
    expect(report.data).toMatchObject({ kept: 2, lost: 1, rewritten: true });
    expect(readdirSync(report.data.dataSetAside)).toEqual([victim]);

    const after = await ids();
    expect(after).toHaveLength(2);
    expect(after.every((id) => before.includes(id))).toBe(true);
    const search = await runCli(['search', 'pnpm', '--json'], { env });
    expect(search.exitCode, search.stderr).toBe(0);
    expect(await storeCheck()).toMatchObject({ status: 'ok' });
    expect((await runCli(['add', 'You MUST write integration tests.'], { env })).exitCode).toBe(0);
    expect(await ids()).toHaveLength(3);
    expect((await runCli(['repair'], { env })).stdout).toMatch(/nothing to repair\n$/);
  }, 120_000);
});

describe('a text index that no longer loads', () => {
  it('lets recall add store and say so truthfully, fails doctor, and recall repair rebuilds it', async () => {
    await addThree();
    const indices = join(tableDir, '_indices');
    for (const index of readdirSync(indices)) for (const file of readdirSync(join(indices, index))) overwrite(join(indices, index, file));

    const added = await runCli(['add', 'You MUST write integration tests.'], { env });
    expect(added.exitCode, added.stderr).toBe(0);
    expect(added.stdout).toMatch(/^stored \S+ in global\n/);
    expect(added.stderr).toMatch(/^warning: 1 memory was stored, but the text index could not be updated \(.*\); run `recall repair`\n$/);
    expect(added.stderr).not.toMatch(/\.rs:\d+|cargo/);
    expect(await ids()).toHaveLength(4);

    expect(await storeCheck()).toMatchObject({ status: 'fail', detail: expect.stringMatching(/the text index does not load/) });
    const textSearch = await runCli(['search', 'pnpm', '--mode', 'text'], { env });
    expect(textSearch.exitCode).toBe(1);
    expect(textSearch.stderr).toBe(`recall: the text index of the memory table in ${join(h.home, 'db')} does not load; run \`recall repair\` to rebuild it\n`);

    const repaired = await runCli(['repair'], { env });
    expect(repaired.exitCode, repaired.stderr).toBe(0);
    expect(repaired.stdout).toMatch(/the text index did not load: rebuilt it/);
    const search = await runCli(['search', 'integration tests', '--json'], { env });
    expect(search.exitCode, search.stderr).toBe(0);
    expect((JSON.parse(search.stdout) as { content: string }[]).map((m) => m.content)).toContain('You MUST write integration tests.');
    expect(await storeCheck()).toMatchObject({ status: 'ok' });
  }, 120_000);
});
