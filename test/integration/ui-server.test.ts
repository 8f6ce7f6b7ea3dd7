/**
 * `recall ui` as a process, over plain HTTP (no browser needed): the URL it prints, the token and
 * cookie, refused Host and Origin, writes that need the token, escaped text, redacted edits, a clean stop.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { execa, type ResultPromise } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordSavings } from '../../src/endless/savings-ledger.js';
import { appendHistory } from '../../src/worker/history.js';
import { BIN, runCli } from '../support/cli.js';
import { startHarness, type Harness } from '../support/harness.js';
import { HOUR, ago, seedLine } from '../support/memory-file.js';

let h: Harness;
let ui: ResultPromise;
let token = '';
let code = '';
let port = 0;

function get(path: string, headers: Record<string, string> = {}, method = 'GET', body?: string): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, method, headers: { Host: `127.0.0.1:${port}`, ...headers } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const cookie = () => ({ Cookie: `recall_ui_${port}=${token}` });

beforeAll(async () => {
  h = await startHarness({ embedder: 'hash' });
  const file = join(h.root, 'seed.jsonl');
  writeFileSync(file, [
    seedLine({ id: 'm1', content: 'Use pnpm for installs.', namespace: 'global', createdAt: ago(2 * HOUR) }),
    seedLine({ id: 'm2', content: '<script>alert(1)</script> & "quotes"', namespace: 'global', createdAt: ago(HOUR) }),
  ].join('\n') + '\n');
  expect((await runCli(['import', file], { env: h.env })).exitCode).toBe(0);
  const fork = { originalChars: 40_000, shownChars: 10_000, resume: { beforeChars: 90_000, afterChars: 60_000 }, wholeFile: { beforeChars: 100_000, afterChars: 70_000 } };
  recordSavings(h.home, { version: 1, source: 'fork', sessionId: 'sess-endless', newSessionId: 'sess-new', at: ago(HOUR), outputs: 12, ...fork }, { log: () => undefined });
  ui = execa(process.execPath, [BIN, 'ui', '--no-open', '--port', '0', '--json'], { env: h.env, extendEnv: false, reject: false });
  // --json prints one JSON object (possibly over several lines): read until it parses.
  const printed = await new Promise<{ url: string }>((resolve) => {
    let text = '';
    ui.stdout?.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8');
      try {
        resolve(JSON.parse(text) as { url: string });
      } catch {
        // Not whole yet.
      }
    });
  });
  const url = new URL(printed.url);
  port = Number(url.port);
  code = url.searchParams.get('code') ?? '';
});

afterAll(async () => {
  await h.close();
});

describe('recall ui over HTTP', () => {
  it('prints {url} with --json: 127.0.0.1, a free port, a long random one-time code', () => {
    expect(port).toBeGreaterThan(0);
    expect(code).toMatch(/^[\w-]{32}$/);
  });

  it('answers 401 without the cookie and to a wrong code, trades the code for a strict cookie once, and the code dies', async () => {
    expect((await get('/')).status).toBe(401);
    expect((await get('/review', { Cookie: `recall_ui_${port}=nope` })).status).toBe(401);
    expect((await get('/?code=nope')).status).toBe(401);
    const first = await get(`/?code=${code}`);
    expect(first.status).toBe(303);
    expect(first.headers.location).toBe('/');
    const set = /recall_ui_\d+=([\w-]+); Path=\/; HttpOnly; SameSite=Strict/.exec(String(first.headers['set-cookie']));
    expect(set).not.toBeNull();
    token = set![1]!;
    // The cookie's secret is not the code: the URL never carried it.
    expect(token).not.toBe(code);
    expect((await get('/', cookie())).status).toBe(200);
    // A second use of the code, without the cookie, is refused: it died on first use.
    const again = await get(`/?code=${code}`);
    expect(again.status).toBe(401);
    expect(again.body).toContain('used already');
    // The signed-in browser opening the link again just lands on the page.
    expect((await get(`/?code=${code}`, cookie())).status).toBe(303);
  });

  it('refuses another Host (DNS rebinding) and another Origin, even with the cookie', async () => {
    expect((await get('/', { ...cookie(), Host: 'evil.example' })).status).toBe(403);
    expect((await get('/', { ...cookie(), Host: `evil.example:${port}` })).status).toBe(403);
    expect((await get('/', { ...cookie(), Origin: 'http://evil.example' })).status).toBe(403);
    expect((await get('/', { ...cookie(), Origin: `http://localhost:${port}` })).status).toBe(200);
    expect((await get('/', { ...cookie(), Host: `localhost:${port}` })).status).toBe(200);
  });

  it('sends a strict CSP and shows stored HTML as escaped text', async () => {
    const page = await get('/', cookie());
    expect(page.headers['content-security-policy']).toContain("default-src 'self'");
    expect(page.body).toContain('&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;quotes&quot;');
    expect(page.body).not.toContain('<script>');
  });

  it('undoes a forget of the newest version whole: the forgotten head current again, the version before it replaced again', async () => {
    const added: string[] = [];
    for (const text of ['Use Node 18 for the API server.', 'Use Node 20 for the API server.']) {
      const result = await runCli(['add', text, '--namespace', 'global', '--json'], { env: h.env });
      expect(result.exitCode, result.stderr).toBe(0);
      added.push((JSON.parse(result.stdout) as { id: string }).id);
    }
    const [older, head] = added as [string, string];
    const status = async (id: string) => (await runCli(['show', id], { env: h.env })).stdout.match(/^status\s+(.*)$/m)?.[1] ?? '(gone)';
    expect(await status(older)).toMatch(new RegExp(`^replaced by ${head} at `));
    const form = { ...cookie(), 'Content-Type': 'application/x-www-form-urlencoded', 'X-Recall-Token': token };

    const forgot = await get('/forget', form, 'POST', `id=${head}&back=%2F`);
    expect(forgot.status).toBe(303);
    expect(await status(older)).toBe('current');
    const key = new URL(String(forgot.headers.location), 'http://x').searchParams.get('undo');
    expect(key).toMatch(/^[\w-]+$/);

    const undone = await get('/undo', form, 'POST', `key=${key}`);
    expect(undone.status).toBe(303);
    expect(await status(head)).toBe('current');
    expect(await status(older)).toMatch(new RegExp(`^replaced by ${head} at `));
    const listed = JSON.parse((await runCli(['list', '--json', '--namespace', 'global'], { env: h.env })).stdout) as { id: string }[];
    expect(listed.map((m) => m.id)).toContain(head);
    expect(listed.map((m) => m.id)).not.toContain(older);
  });

  it('refuses a write with the cookie but without the token, and takes one with the token header', async () => {
    const form = { ...cookie(), 'Content-Type': 'application/x-www-form-urlencoded' };
    const refused = await get('/memory/m1/edit', form, 'POST', 'text=changed&type=preference');
    expect(refused.status).toBe(403);
    const edited = await get('/memory/m1/edit', { ...form, 'X-Recall-Token': token }, 'POST', `text=${encodeURIComponent('Deploy with password=hunter2hunter2 from the vault.')}&type=decision`);
    expect(edited.status).toBe(303);
    const shown = await runCli(['show', 'm1', '--json'], { env: h.env });
    const record = JSON.parse(shown.stdout) as { content: string; type: string };
    expect(record.type).toBe('decision');
    expect(record.content).toContain('Deploy with password=');
    expect(record.content).not.toContain('hunter2hunter2');
  });

  it('shows the Endless savings by source and in total, as recall endless stats counts them', async () => {
    const page = await get('/endless', cookie());
    expect(page.status).toBe(200);
    expect(page.body).toContain('30,000 characters saved of 40,000');
    expect(page.body).toMatch(/<td[^>]*>fork<\/td><td[^>]*>1<\/td><td[^>]*>12<\/td><td[^>]*>40,000<\/td><td[^>]*>10,000<\/td><td[^>]*><progress max="40000" value="30000"><\/progress> 75%<\/td><td[^>]*>30,000<\/td>/);
  });

  it('lists captures with what they stored and held back, and failed jobs with their reason; retry queues them again', async () => {
    appendHistory(join(h.home, 'history.jsonl'), {
      job: 'job-1', sessionId: 'sess-7', transcriptPath: '/x.jsonl', namespace: 'global', status: 'stored', inserted: 3, reinforced: 2, superseded: 1, quarantined: 1, ms: 2500, at: ago(HOUR),
    });
    const job = { version: 1, id: 'job-2', sessionId: 'sess-8', transcriptPath: join(h.root, 'missing.jsonl'), cwd: null, agent: 'claude', reason: 'exit', enqueuedAt: ago(HOUR), attempts: 5, notBefore: null, lastError: 'LLM_UNAVAILABLE: Ollama did not answer' };
    mkdirSync(join(h.home, 'spool', 'failed'), { recursive: true, mode: 0o700 });
    writeFileSync(join(h.home, 'spool', 'failed', 'job-2.json'), JSON.stringify(job), { mode: 0o600 });
    const page = await get('/sessions', cookie());
    expect(page.body).toMatch(/<td[^>]*>global \(all projects\)<\/td><td[^>]*>sess-7<\/td><td[^>]*>stored<\/td><td[^>]*>3<\/td><td[^>]*>2<\/td><td[^>]*>1<\/td><td[^>]*>1<\/td><td[^>]*>2.5 s<\/td>/);
    expect(page.body).toMatch(/<td[^>]*>job-2\.json<\/td><td[^>]*>sess-8<\/td>/);
    expect(page.body).toContain('LLM_UNAVAILABLE: Ollama did not answer');
    const retried = await get('/sessions/retry', { ...cookie(), 'X-Recall-Token': token }, 'POST');
    expect(retried.status).toBe(303);
    expect(retried.headers.location).toBe('/sessions?retried=1');
    expect(existsSync(join(h.home, 'spool', 'failed', 'job-2.json'))).toBe(false);
    expect((await get('/sessions?retried=1', cookie())).body).toContain('1 capture queued again');
  });

  it('says so in one line when the port is taken', async () => {
    const taken = await runCli(['ui', '--no-open', '--port', String(port)], { env: h.env });
    expect(taken.exitCode).toBe(1);
    expect(taken.stderr).toBe(`recall: port ${port} on 127.0.0.1 is in use; pick another with --port, or --port 0 for a free one\n`);
  });

  it('stops cleanly on SIGTERM', async () => {
    ui.kill('SIGTERM');
    const result = await ui;
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toBe('');
  });
});

describe('recall ui --help', () => {
  it('names its options and the security model', async () => {
    const help = await runCli(['ui', '--help'], { env: h?.env ?? {} });
    expect(help.stdout).toContain('--port <n>');
    expect(help.stdout).toContain('--no-open');
    expect(help.stdout).toContain('127.0.0.1 only');
  });
});
