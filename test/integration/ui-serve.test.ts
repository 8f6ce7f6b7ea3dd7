/**
 * `recall ui` with a `recall serve` running: the page is served from inside the daemon (its pid on the
 * health page, its writes the store's), and stops when `recall ui` is interrupted or killed, while the
 * daemon goes on. A daemon with another configuration, RECALL_NO_SERVE and a daemon that stops are
 * handled too.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, waitFor } from '../support/cli.js';
import { startHarness, type Harness } from '../support/harness.js';
import { requestUi, rowIds, startUiProcess } from '../support/ui-process.js';

let h: Harness;
let env: NodeJS.ProcessEnv;
let daemonPid = 0;

/** Whether anything still listens on the port. */
async function listening(port: number): Promise<boolean> {
  return requestUi(port, '/').then(() => true, () => false);
}

function daemonSaid(text: string): number {
  return readFileSync(join(env.RECALL_HOME!, 'recall.log'), 'utf8').split('\n').filter((line) => line.includes(text)).length;
}

beforeAll(async () => {
  h = await startHarness({ embedder: 'hash' });
  env = { ...h.env, RECALL_HOME: join(h.root, 'ui-serve-home') };
  expect((await runCli(['add', 'Store money as integer cents in a bigint column.', '--type', 'decision'], { env })).exitCode).toBe(0);
  expect((await runCli(['serve', '--detach'], { env })).exitCode).toBe(0);
  daemonPid = Number(readFileSync(join(env.RECALL_HOME!, 'serve.sock.pid'), 'utf8'));
});

afterAll(async () => {
  await runCli(['serve', '--stop'], { env });
  await h.close();
});

describe('recall ui with recall serve running', () => {
  it('is served by the daemon, reads and writes its store, and stops when recall ui is interrupted', async () => {
    const ui = await startUiProcess(env);
    const health = await ui.get('/health');
    expect(health.status).toBe(200);
    expect(health.body).toContain(`This page is served by recall serve (pid ${daemonPid}).`);
    expect(ui.process.pid).not.toBe(daemonPid);

    const list = await ui.get('/');
    const [id] = rowIds(list.body);
    expect(list.body).toContain('Store money as integer cents in a bigint column.');
    const edited = await ui.get(`/memory/${id}/edit`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'X-Recall-Token': ui.token },
      body: `text=${encodeURIComponent('Store money as integer cents, never floats.')}&type=decision`,
    });
    expect(edited.status).toBe(303);
    const shown = JSON.parse((await runCli(['show', id!, '--json'], { env: { ...env, RECALL_NO_SERVE: '1' } })).stdout) as { content: string };
    expect(shown.content).toBe('Store money as integer cents, never floats.');

    ui.process.kill('SIGINT');
    expect((await ui.process).exitCode).toBe(0);
    expect(await listening(ui.port)).toBe(false);
    expect(daemonSaid('serve: stopped recall ui for a client')).toBeGreaterThanOrEqual(1);
    const status = JSON.parse((await runCli(['status', '--json'], { env })).stdout) as { serve: { running: boolean; pid: number } };
    expect(status.serve).toMatchObject({ running: true, pid: daemonPid });
  });

  it('stops the page when recall ui is killed outright', async () => {
    const ui = await startUiProcess(env);
    expect((await ui.get('/')).status).toBe(200);
    ui.process.kill('SIGKILL');
    await ui.process;
    await waitFor(async () => ((await listening(ui.port)) ? undefined : true), { timeoutMs: 5_000 });
  });

  it('serves the page itself with RECALL_NO_SERVE=1 or when the daemon runs another store', async () => {
    for (const other of [{ RECALL_NO_SERVE: '1' }, { RECALL_STORE_URI: join(h.root, 'other-db') }]) {
      const ui = await startUiProcess({ ...env, ...other });
      const health = await ui.get('/health');
      expect(health.body).toContain(`This page is served by recall ui (pid ${ui.process.pid}).`);
      ui.process.kill('SIGTERM');
      expect((await ui.process).exitCode).toBe(0);
    }
    expect(daemonSaid('serve: refused to host recall ui for a client with another configuration')).toBe(1);
  });

  it('exits with a clear line when the daemon stops under it, taking the page along', async () => {
    const ui = await startUiProcess(env);
    expect((await runCli(['serve', '--stop'], { env })).exitCode).toBe(0);
    const result = await ui.process;
    expect(result.exitCode).toBe(1);
    expect(String(result.stderr)).toBe(`recall: recall serve (pid ${daemonPid}) stopped, and the page with it; run recall ui again`);
    expect(await listening(ui.port)).toBe(false);
  });
});
