/**
 * The one-time costs of a process's first request that need no rows, paid before `recall ui` prints
 * its URL: Hono builds its route matcher on the first match, and ICU loads its collation data on the
 * first locale comparison (the counts' sort); number data loads with format-count.ts. (Node's fetch
 * classes are already loaded by then: @hono/node-server takes the global Request and Response when it
 * is imported.) Nothing here reads the store: reads at start take CPU from the first requests on a
 * small machine.
 */
import type { Hono } from 'hono';

export function prepareFirstRequest(app: Hono): void {
  app.router.match('GET', '/');
  void 'a'.localeCompare('b');
}
