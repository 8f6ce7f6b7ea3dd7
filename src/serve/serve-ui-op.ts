/**
 * The daemon's side of `recall ui` through `recall serve` (serve-client/served-ui.ts): the page runs
 * inside the daemon over its open runtime, for as long as the client's connection stays open. The
 * page itself (src/ui/) sits above the daemon, so the command line hands in how to start one.
 */
import type { Socket } from 'node:net';
import { z } from 'zod';
import type { Runtime } from '../app/runtime.js';
import { describeError } from '../core/errors.js';
import type { Logger } from '../core/log.js';
import type { ServeIdentity } from '../serve-client/serve-protocol.js';
import type { UiAnswer } from '../serve-client/served-ui.js';

/** Starts the page on 127.0.0.1 with a fresh token over `runtime`, and two one-time URLs; see src/ui/start-ui.ts. */
export type UiStarter = (options: { port: number; runtime: Runtime; logger: Logger; cwd: string }) => Promise<{ url: string; openUrl: string; close(): Promise<void> }>;

export interface UiHosting {
  /** Answers a `ui` request on its connection and keeps the page up until the connection ends. */
  host(socket: Socket, request: unknown): Promise<void>;
  /** Stops every page and ends their connections (the daemon is stopping). */
  closeAll(): Promise<void>;
}

const uiRequest = z.object({
  v: z.literal(1),
  op: z.literal('ui'),
  expect: z.object({ embedder: z.string(), store: z.string() }),
  port: z.number().int().min(0).max(65_535),
  cwd: z.string().min(1),
});

export function createUiHosting(runtime: Runtime, identity: ServeIdentity, logger: Logger, startUi: UiStarter | null): UiHosting {
  const open = new Map<Socket, () => Promise<void>>();
  const answer = (socket: Socket, reply: UiAnswer): void => void socket.write(`${JSON.stringify(reply)}\n`);

  return {
    async host(socket, raw) {
      // A client gone mid-start must not take the daemon down with an unhandled socket error.
      socket.on('error', () => undefined);
      const parsed = uiRequest.safeParse(raw);
      if (!parsed.success || startUi === null) {
        answer(socket, { ok: false, reason: 'failed', message: startUi === null ? 'this recall serve does not host recall ui' : 'bad request to recall serve' });
        socket.end();
        return;
      }
      const request = parsed.data;
      if (request.expect.embedder !== identity.embedder || request.expect.store !== identity.store) {
        logger.log('info', 'serve: refused to host recall ui for a client with another configuration', { wanted: request.expect, own: identity });
        answer(socket, { ok: false, reason: 'refused', message: 'recall serve runs with another embedder or store' });
        socket.end();
        return;
      }
      let page: Awaited<ReturnType<UiStarter>>;
      try {
        page = await startUi({ port: request.port, runtime, logger, cwd: request.cwd });
      } catch (err) {
        logger.log('warn', `serve: could not start recall ui: ${describeError(err)}`);
        answer(socket, { ok: false, reason: 'failed', message: describeError(err) });
        socket.end();
        return;
      }
      let stopping: Promise<void> | null = null;
      const stop = (): Promise<void> =>
        (stopping ??= (async () => {
          open.delete(socket);
          await page.close().catch((err: unknown) => logger.log('warn', `serve: could not stop recall ui: ${describeError(err)}`));
          logger.log('info', 'serve: stopped recall ui for a client', { port: new URL(page.url).port });
          socket.end();
        })());
      open.set(socket, stop);
      // Any line from the client (it sends `close`) or the end of its connection stops the page.
      socket.on('data', () => void stop());
      socket.once('close', () => void stop());
      if (socket.destroyed) {
        void stop(); // The client went while the page started.
        return;
      }
      answer(socket, { ok: true, url: page.url, openUrl: page.openUrl, pid: process.pid });
      logger.log('info', 'serve: hosting recall ui for a client', { port: new URL(page.url).port });
    },

    async closeAll() {
      await Promise.all([...open.values()].map((stop) => stop()));
    },
  };
}
