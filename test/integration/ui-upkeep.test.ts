/**
 * `recall ui` starts the store's upkeep when it is due, but only once its first page has been answered:
 * checking whether upkeep is due reads the table's versions and index statistics, CPU the first request
 * would otherwise share.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { startHarness, type Harness } from '../support/harness.js';
import { HOUR, ago, seedFile } from '../support/memory-file.js';
import { startUiProcess, type UiProcess } from '../support/ui-process.js';

let h: Harness;
let ui: UiProcess | undefined;
const UPKEEP = /store maintenance (started in the background|due; one is running already)/;

/** The log written since `from` characters. */
function logSince(from: number): string {
  const file = join(h.home, 'recall.log');
  return existsSync(file) ? readFileSync(file, 'utf8').slice(from) : '';
}

beforeAll(async () => {
  // Upkeep is due as soon as the table has a version at all.
  h = await startHarness({ embedder: 'hash', env: { RECALL_OPTIMIZE_EVERY_VERSIONS: '1' } });
  const file = join(h.root, 'seed.jsonl');
  writeFileSync(file, seedFile([{ id: 'g1', content: 'Use pnpm for installs.', namespace: 'global', createdAt: ago(HOUR) }]));
  expect((await runCli(['import', file], { env: h.env })).exitCode).toBe(0);
});

afterAll(async () => {
  ui?.process.kill('SIGTERM');
  await ui?.process;
  await h.close();
});

describe('recall ui and the store upkeep', () => {
  it('checks for due upkeep once the first page is answered, not at start', async () => {
    const from = logSince(0).length;
    ui = await startUiProcess(h.env);
    // The code trade (a redirect) and the stylesheet are not pages.
    expect((await ui.get('/assets/ui.css')).status).toBe(200);
    expect(logSince(from)).not.toMatch(UPKEEP);
    expect((await ui.get('/')).status).toBe(200);
    for (let tries = 0; !UPKEEP.test(logSince(from)) && tries < 200; tries += 1) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(logSince(from)).toMatch(UPKEEP);
  });
});
