/**
 * `recall ui` in a real browser (Debian's chromium through playwright-core) against the built CLI and a
 * real store: the token, search, edit, forget, review, the next-session preview, refused requests and
 * stored text shown as text. Screenshots of each page go to test-output/ui/.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { execa, type ResultPromise } from 'execa';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveProject } from '../../src/project/resolve-project.js';
import { BIN, runCli } from '../support/cli.js';
import { startHarness, type Harness } from '../support/harness.js';
import { HOUR, ago, seedLine } from '../support/memory-file.js';

const SHOTS = join(process.cwd(), 'test-output', 'ui');
const XSS = '<img src=x onerror=alert(1)>';
const chromiumPath = findChromium();
if (chromiumPath === null) console.warn('test/browser: chromium not found on PATH; the recall ui browser tests are skipped (apt-get install chromium)');

let h: Harness;
let ui: ResultPromise | undefined;
let url = '';
let base = '';
/** The session's secret, read from the cookie the printed URL's one-time code was traded for. */
let token = '';
let first: Page;
let browser: Browser;
let shopNs = '';
/** Messages of every dialog any page opened: stored text run as script would open one. */
const dialogs: string[] = [];

function findChromium(): string | null {
  try {
    return execFileSync('sh', ['-c', 'command -v chromium || command -v chromium-browser'], { encoding: 'utf8' }).trim() || null;
  } catch {
    return null;
  }
}

/** The first stdout line of `recall ui`: its URL. */
function firstLine(child: ResultPromise): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8');
      const end = text.indexOf('\n');
      if (end >= 0) resolve(text.slice(0, end));
    });
    child.catch((err: unknown) => reject(err instanceof Error ? err : new Error(String(err))));
  });
}

/** A raw request with headers a browser would never let a page set (Host). */
function rawGet(path: string, headers: Record<string, string>): Promise<number> {
  const { port } = new URL(base);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port: Number(port), path, headers }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end();
  });
}

async function newPage(): Promise<Page> {
  const context = await browser.newContext();
  const page = await context.newPage();
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  return page;
}

/** A fresh browser context signed in with the session cookie (the printed code opened the page once). */
async function openPage(path = '/'): Promise<Page> {
  const page = await newPage();
  await page.context().addCookies([{ name: `recall_ui_${new URL(base).port}`, value: token, url: base, httpOnly: true, sameSite: 'Strict' }]);
  await page.goto(`${base}${path.slice(1)}`);
  return page;
}

describe.skipIf(chromiumPath === null)('recall ui in a browser', () => {
  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    h = await startHarness({ embedder: 'hash' });
    const shop = h.project('shop');
    shopNs = resolveProject(shop).namespace;
    const file = join(h.root, 'seed.jsonl');
    const held = JSON.parse(seedLine({ id: 'm4', content: 'Deploy the release on Fridays only.', namespace: shopNs, createdAt: ago(HOUR) })) as Record<string, unknown>;
    writeFileSync(file, [
      seedLine({ id: 'm1', content: 'Use pnpm for installs, never npm.', type: 'golden_rule', namespace: shopNs, projectRoot: shop, createdAt: ago(3 * HOUR) }),
      seedLine({ id: 'm2', content: 'Store money as integer cents in a BIGINT column.', type: 'decision', namespace: shopNs, projectRoot: shop, createdAt: ago(2 * HOUR), sessionId: 'sess-1' }),
      seedLine({ id: 'm3', content: XSS, namespace: shopNs, createdAt: ago(HOUR) }),
      JSON.stringify({ ...held, status: 'quarantined' }),
      seedLine({ id: 'm5', content: 'Docker compose files live in deploy/.', type: 'pattern', namespace: shopNs, createdAt: ago(HOUR / 2) }),
    ].join('\n') + '\n');
    const seeded = await runCli(['import', file], { env: h.env });
    expect(seeded.exitCode, seeded.stderr).toBe(0);
    ui = execa(process.execPath, [BIN, 'ui', '--no-open', '--port', '0'], { env: h.env, extendEnv: false, reject: false });
    const line = await firstLine(ui);
    expect(line).toMatch(/^recall ui: http:\/\/127\.0\.0\.1:\d+\/\?code=[\w-]{32}$/);
    url = line.slice('recall ui: '.length);
    base = url.slice(0, url.indexOf('?'));
    browser = await chromium.launch({ executablePath: chromiumPath ?? undefined });
    first = await newPage();
    await first.goto(url);
    token = (await first.context().cookies()).find((c) => c.name === `recall_ui_${new URL(base).port}`)?.value ?? '';
  });

  afterAll(async () => {
    await browser?.close();
    ui?.kill('SIGTERM');
    if (ui) {
      const result = await ui;
      expect(result.exitCode).toBe(0);
    }
    await h?.close();
  });

  it('refuses a request without the cookie or with a wrong code, and trades the one-time code for a cookie', async () => {
    expect((await fetch(base)).status).toBe(401);
    expect((await fetch(`${base}?code=wrong`)).status).toBe(401);
    // The printed URL's code is dead now that the browser used it.
    expect((await fetch(url, { redirect: 'manual' })).status).toBe(401);
    const page = first;
    expect(page.url()).toBe(base);
    expect(token).toMatch(/^[\w-]{43}$/);
    const cookies = await page.context().cookies();
    expect(cookies.find((c) => c.name === `recall_ui_${new URL(base).port}`)).toMatchObject({ httpOnly: true, sameSite: 'Strict' });
    await expect(page.locator('tr[data-id="m1"]').textContent()).resolves.toContain('Use pnpm for installs');
    await page.screenshot({ path: join(SHOTS, 'memories.png'), fullPage: true });
  });

  it('refuses a foreign Host header and a foreign Origin even with the token cookie', async () => {
    const { port } = new URL(base);
    const cookie = `recall_ui_${port}=${token}`;
    expect(await rawGet('/', { Host: `127.0.0.1:${port}`, Cookie: cookie })).toBe(200);
    expect(await rawGet('/', { Host: 'evil.example', Cookie: cookie })).toBe(403);
    expect(await rawGet('/', { Host: `evil.example:${port}`, Cookie: cookie })).toBe(403);
    expect(await rawGet('/', { Host: `127.0.0.1:${port}`, Origin: 'http://evil.example', Cookie: cookie })).toBe(403);
  });

  it('refuses a POST that carries the cookie but not the token', async () => {
    const page = await openPage();
    const answer = await page.request.post(`${base}memory/m5/forget`, { form: { nothing: '1' } });
    expect(answer.status()).toBe(403);
    await page.goto(base);
    expect(await page.locator('tr[data-id="m5"]').count()).toBe(1);
  });

  it('shows a memory whose text is HTML as text, and no script runs', async () => {
    const page = await openPage();
    const row = page.locator('tr[data-id="m3"] td.text a');
    await expect(row.textContent()).resolves.toBe(XSS);
    expect(await page.locator('main img').count()).toBe(0);
    await page.goto(`${base}memory/m3`);
    await expect(page.locator('#edit textarea').inputValue()).resolves.toBe(XSS);
    await page.waitForTimeout(200);
    expect(dialogs).toEqual([]);
  });

  it('searches with the hybrid search', async () => {
    const page = await openPage();
    await page.fill('input[name=q]', 'integer cents');
    await page.click('form.filters button');
    await page.waitForURL(/q=integer/);
    const ids = await page.locator('table.memories tbody tr').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-id')));
    expect(ids[0]).toBe('m2');
    await page.screenshot({ path: join(SHOTS, 'search.png'), fullPage: true });
  });

  it('edits a memory and the next-session preview shows the new text', async () => {
    const page = await openPage(`/next-session?namespace=${encodeURIComponent(shopNs)}`);
    await expect(page.locator('#context').textContent()).resolves.toContain('Use pnpm for installs');
    await page.goto(`${base}memory/m1`);
    await page.screenshot({ path: join(SHOTS, 'memory.png'), fullPage: true });
    await page.fill('#edit textarea', 'Use yarn for installs, never npm.');
    await page.selectOption('#edit select', 'preference');
    await page.click('#edit button');
    await page.waitForURL(`${base}memory/m1`);
    await expect(page.locator('#edit textarea').inputValue()).resolves.toBe('Use yarn for installs, never npm.');
    await page.goto(`${base}next-session?namespace=${encodeURIComponent(shopNs)}`);
    const context = (await page.locator('#context').textContent()) ?? '';
    expect(context).toContain('Use yarn for installs');
    expect(context).not.toContain('Use pnpm');
    // As the hook hands it over: wrapped, and read from the context file the write refreshed.
    expect(context).toMatch(/^<recall-context>\n/);
    expect(await page.locator('#stale').count()).toBe(0);
    await expect(page.locator('#budget').textContent()).resolves.toMatch(/^\d+ of \d+ characters/);
    await page.screenshot({ path: join(SHOTS, 'next-session.png'), fullPage: true });
  });

  it('approves a quarantined memory from the review page with one click', async () => {
    const page = await openPage('/review');
    await expect(page.locator('#pending').textContent()).resolves.toBe('1');
    await page.screenshot({ path: join(SHOTS, 'review.png'), fullPage: true });
    await page.click('tr[data-id="m4"] button:has-text("Approve")');
    await page.waitForURL(`${base}review`);
    expect(await page.locator('#nothing').count()).toBe(1);
    expect(await page.locator('#pending').count()).toBe(0);
    await page.goto(base);
    expect(await page.locator('tr[data-id="m4"] .held').count()).toBe(0);
    expect(await page.locator('tr[data-id="m4"]').count()).toBe(1);
  });

  it('forgets a memory', async () => {
    const page = await openPage('/memory/m5');
    await page.click('button:has-text("Forget this memory")');
    await page.waitForURL(base);
    expect(await page.locator('tr[data-id="m5"]').count()).toBe(0);
    expect((await page.goto(`${base}memory/m5`))?.status()).toBe(404);
  });

  it('shows the sessions, Endless and health pages', async () => {
    const page = await openPage('/sessions');
    await page.screenshot({ path: join(SHOTS, 'sessions.png'), fullPage: true });
    await page.goto(`${base}endless`);
    await page.screenshot({ path: join(SHOTS, 'endless.png'), fullPage: true });
    await page.goto(`${base}health`);
    await expect(page.locator('main table').textContent()).resolves.toContain('Node');
    await page.screenshot({ path: join(SHOTS, 'health.png'), fullPage: true });
  });
});
