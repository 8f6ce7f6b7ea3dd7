/**
 * `recall ui` opens the browser through `xdg-open <url>`, whose command line every local user can read
 * (`/proc/<pid>/cmdline`). Here the opener is a stand-in on PATH that writes down its arguments, as
 * another user reading /proc would: the URL it got must not let a second party in once the browser
 * used it, and must not hold the session's secret.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, waitFor } from '../support/cli.js';
import { startHarness, type Harness } from '../support/harness.js';
import { redeemCode, requestUi } from '../support/ui-process.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ embedder: 'hash' });
});
afterAll(async () => {
  await h.close();
});

describe('recall ui and the browser opener', () => {
  it('hands the opener a one-time code, not the session secret: seen on its command line, it is dead once the browser used it', async () => {
    const bin = join(h.root, 'opener-bin');
    mkdirSync(bin, { recursive: true });
    const seen = join(h.root, 'opener-argv.txt');
    writeFileSync(join(bin, 'xdg-open'), `#!/bin/sh\nprintf '%s\\n' "$@" > '${seen}'\n`);
    chmodSync(join(bin, 'xdg-open'), 0o755);
    const ui = execa(process.execPath, [BIN, 'ui', '--port', '0', '--json'], { env: { ...h.env, PATH: `${bin}:${h.env.PATH ?? ''}` }, extendEnv: false, reject: false });
    try {
      const printed = await new Promise<URL>((resolve) => {
        let text = '';
        ui.stdout?.on('data', (chunk: Buffer) => {
          text += chunk.toString('utf8');
          try {
            resolve(new URL((JSON.parse(text) as { url: string }).url));
          } catch {
            // Not whole yet.
          }
        });
      });
      const opened = new URL((await waitFor(() => (existsSync(seen) ? readFileSync(seen, 'utf8').trim() || undefined : undefined))));
      const port = Number(printed.port);
      expect(opened.port).toBe(printed.port);
      expect(opened.searchParams.get('code')).not.toBe(printed.searchParams.get('code'));

      // The browser opens it first and gets the session cookie.
      const token = await redeemCode(port, opened);
      expect(opened.href).not.toContain(token);
      expect(printed.href).not.toContain(token);
      // Another user who read the opener's command line gets nowhere with it.
      const stolen = await requestUi(port, `${opened.pathname}${opened.search}`);
      expect(stolen.status).toBe(401);
      expect(stolen.headers['set-cookie']).toBeUndefined();
      const forget = await requestUi(port, '/forget', { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: `id=x&_token=${opened.searchParams.get('code') ?? ''}` });
      expect(forget.status).toBe(401);
      // The printed link still opens the page once, for the user at the terminal.
      expect((await requestUi(port, `${printed.pathname}${printed.search}`)).status).toBe(303);
      expect((await requestUi(port, `${printed.pathname}${printed.search}`)).status).toBe(401);
    } finally {
      ui.kill('SIGTERM');
      await ui;
    }
  });
});
