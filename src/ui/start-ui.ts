/** Starts `recall ui` on 127.0.0.1 with a fresh session token; resolves with two one-time URLs and a close. */
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { RecallError } from '../core/errors.js';
import type { Logger } from '../core/log.js';
import type { Runtime } from '../app/runtime.js';
import { createOneTimeCodes } from './one-time-codes.js';
import { prepareFirstRequest } from './prepare-first-request.js';
import { buildUiApp } from './ui-app.js';
import { CODE_PARAM } from './ui-security.js';

export interface UiHandle {
  /** The URL to print: its code opens the page once. */
  url: string;
  /** Another URL with its own one-time code, for the browser opener. */
  openUrl: string;
  port: number;
  /**
   * Settles once the first page has been answered, or after FIRST_PAGE_WAIT_MS without one: work the
   * page starts in the background (the store's upkeep) waits for it, so it never shares the CPU with
   * the first request.
   */
  firstPageAnswered: Promise<void>;
  close(): Promise<void>;
}

const FIRST_PAGE_WAIT_MS = 30_000;

export interface UiOptions {
  port: number;
  runtime: Runtime;
  logger: Logger;
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** Which process serves the page (`recall ui`, or `recall serve` hosting it), as the health page says. */
  servedBy: 'recall ui' | 'recall serve';
}

export async function startUi(options: UiOptions): Promise<UiHandle> {
  // The table opens, and the counts nearly every page shows are read, before the URL is printed: the
  // first page neither waits for them nor shares the CPU with them.
  await options.runtime.store();
  const token = randomBytes(32).toString('base64url');
  let port = options.port;
  const codes = createOneTimeCodes();
  const { app, warm, firstPageAnswered } = buildUiApp({ ...options, access: { token, codes, port: () => port } });
  await Promise.all([prepareFirstRequest(app), warm()]);
  const server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
    const s = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: options.port }, (info: AddressInfo) => {
      port = info.port;
      resolve(s);
    });
    s.once('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'EADDRINUSE') reject(new RecallError('INPUT_INVALID', `port ${options.port} on 127.0.0.1 is in use; pick another with --port, or --port 0 for a free one`, { cause: err }));
      else if (err.code === 'EACCES') reject(new RecallError('INPUT_INVALID', `port ${options.port} needs privileges; pick one above 1023`, { cause: err }));
      else reject(err);
    });
  });
  return {
    url: `http://127.0.0.1:${port}/?${CODE_PARAM}=${codes.issue()}`,
    openUrl: `http://127.0.0.1:${port}/?${CODE_PARAM}=${codes.issue()}`,
    port,
    firstPageAnswered: Promise.race([firstPageAnswered, new Promise<void>((resolve) => setTimeout(resolve, FIRST_PAGE_WAIT_MS).unref())]),
    close: () => new Promise<void>((resolve) => {
      server.close(() => resolve());
      if ('closeAllConnections' in server) server.closeAllConnections();
    }),
  };
}
