/**
 * The totals of `recall ui` stay right: after a memory is added, forgotten or edited on the page, after
 * a capture by another process while the page runs, and after one while no page ran (the counts kept
 * in the state dir from the last start must not be shown for a table that has changed since).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { startHarness, type Harness } from '../support/harness.js';
import { HOUR, ago, seedFile } from '../support/memory-file.js';
import { startUiProcess, type UiProcess } from '../support/ui-process.js';

let h: Harness;
let ui: UiProcess;
const SHOP = 'project:shop-0000abcd';

/** The page's totals line, and how many memories of `type` (all projects) it says match. */
async function totals(type = ''): Promise<string> {
  const page = await ui.get(type === '' ? '/' : `/?type=${type}`);
  expect(page.status).toBe(200);
  return /<p class="totals" id="totals">([^<]*)<\/p>/.exec(page.body)?.[1] ?? '(no totals)';
}

function post(path: string, fields: Record<string, string>): Promise<{ status: number }> {
  return ui.get(path, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: `http://127.0.0.1:${ui.port}` },
    body: new URLSearchParams({ _token: ui.token, ...fields }).toString(),
  });
}

async function restartUi(): Promise<void> {
  await ui.stop();
  ui = await startUiProcess(h.env);
}

beforeAll(async () => {
  h = await startHarness({ embedder: 'hash' });
  const file = join(h.root, 'seed.jsonl');
  writeFileSync(file, seedFile([
    { id: 'g1', content: 'Use pnpm for installs.', namespace: 'global', createdAt: ago(3 * HOUR) },
    { id: 's1', content: 'Store money as integer cents.', namespace: SHOP, type: 'decision', createdAt: ago(2 * HOUR) },
    { id: 's2', content: 'Run the shop tests with the fake payment gateway.', namespace: SHOP, createdAt: ago(HOUR) },
  ]));
  expect((await runCli(['import', file], { env: h.env })).exitCode).toBe(0);
  ui = await startUiProcess(h.env);
});

afterAll(async () => {
  await ui.stop();
  await h.close();
});

describe('recall ui totals', () => {
  it('count a memory added on the page', async () => {
    expect(await totals()).toBe('3 memories in 2 projects.');
    expect((await post('/memory/add', { text: 'Deploy the shop on Tuesdays only.', type: 'decision', namespace: SHOP })).status).toBe(303);
    expect(await totals()).toBe('4 memories in 2 projects.');
    expect(await totals('decision')).toBe('4 memories in 2 projects; 2 match the filters.');
  });

  it('drop a memory forgotten on the page', async () => {
    expect((await post('/forget', { id: 'g1', back: '/' })).status).toBe(303);
    expect(await totals()).toBe('3 memories in 1 project.');
  });

  it('follow a type changed by an edit on the page', async () => {
    expect(await totals('preference')).toBe('3 memories in 1 project; 1 match the filters.');
    expect((await post('/memory/s2/edit', { text: 'Run the shop tests with the fake payment gateway.', type: 'decision' })).status).toBe(303);
    expect(await totals('preference')).toBe('3 memories in 1 project; 0 match the filters.');
    expect(await totals('decision')).toBe('3 memories in 1 project; 3 match the filters.');
  });

  it('count a capture by another process while the page runs', async () => {
    const transcript = h.session('counts-1', ['You MUST use pnpm, never npm.', 'Always store money as integer cents in a bigint column.']);
    const captured = await runCli(['capture', transcript, '--cwd', h.project('billing'), '--session-id', 'counts-1', '--json'], { env: h.env });
    expect(captured.exitCode).toBe(0);
    expect((JSON.parse(captured.stdout) as { inserted: unknown[] }).inserted).toHaveLength(2);
    expect(await totals()).toBe('5 memories in 2 projects.');
  });

  it('count a capture by another process while no page ran, on the next start', async () => {
    await ui.stop();
    const transcript = h.session('counts-2', ['You MUST keep invoices for ten years.']);
    expect((await runCli(['capture', transcript, '--cwd', h.project('ledger'), '--session-id', 'counts-2'], { env: h.env })).exitCode).toBe(0);
    ui = await startUiProcess(h.env);
    expect(await totals()).toBe('6 memories in 3 projects.');
    // And a start over a table nobody changed since shows the same.
    await restartUi();
    expect(await totals()).toBe('6 memories in 3 projects.');
  });
});
