/** `recall ui` as a real process: started from the built bin, its printed URL read, plain HTTP requests to it. */
import { request as httpRequest } from 'node:http';
import { execa, type ResultPromise } from 'execa';
import { BIN } from './cli.js';

export interface UiProcess {
  process: ResultPromise;
  port: number;
  token: string;
  /** Ends the page (SIGTERM) and waits for the process to exit. */
  stop(): Promise<void>;
  /** A GET (or another method) with the token cookie and the right Host. */
  get(path: string, options?: { method?: string; headers?: Record<string, string>; body?: string }): Promise<UiAnswer>;
}

export interface UiAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** Starts `recall ui --no-open --port 0` and resolves once it printed its `recall ui: <url>` line. */
export async function startUiProcess(env: NodeJS.ProcessEnv, cwd?: string): Promise<UiProcess> {
  const child = execa(process.execPath, [BIN, 'ui', '--no-open', '--port', '0'], { env, extendEnv: false, reject: false, cwd });
  const url = await new Promise<URL>((resolve, reject) => {
    let text = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8');
      const match = /^recall ui: (\S+)\n/.exec(text);
      if (match) resolve(new URL(match[1]!));
    });
    void child.then((result) => reject(new Error(`recall ui exited ${result.exitCode} before its URL: ${String(result.stderr)}`)));
  });
  const port = Number(url.port);
  const token = await redeemCode(port, url);
  return {
    process: child,
    port,
    token,
    async stop() {
      child.kill('SIGTERM');
      await child;
    },
    get: (path, options = {}) => requestUi(port, path, { ...options, headers: { Cookie: `recall_ui_${port}=${token}`, ...options.headers } }),
  };
}

/** Trades the one-time code of a printed URL for the session cookie, as a browser would; returns the token. */
export async function redeemCode(port: number, url: URL): Promise<string> {
  const answer = await requestUi(port, `${url.pathname}${url.search}`);
  const match = new RegExp(`recall_ui_${port}=([\\w-]+)`).exec(String(answer.headers['set-cookie']));
  if (answer.status !== 303 || match === null) throw new Error(`the code of ${url.href} was not taken: ${answer.status} ${answer.body}`);
  return match[1]!;
}

export function requestUi(port: number, path: string, options: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<UiAnswer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, method: options.method ?? 'GET', headers: { Host: `127.0.0.1:${port}`, ...options.headers } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

/** The ids of the memory rows of a page, in order. */
export function rowIds(body: string): string[] {
  return [...body.matchAll(/<tr class="[^"]*" data-id="([^"]+)">/g)].map((m) => m[1]!);
}

/** The path of a page's "older" or "newer" link, or null when it has none. */
export function pageLink(body: string, side: 'older' | 'newer'): string | null {
  const match = new RegExp(`<a href="([^"]+)" id="${side}">`).exec(body);
  return match === null ? null : match[1]!.replaceAll('&amp;', '&');
}
