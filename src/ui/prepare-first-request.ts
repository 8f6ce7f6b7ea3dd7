/**
 * The one-time costs of a process's first request that need no rows, paid before `recall ui` prints
 * its URL: Hono builds its route matcher on the first match, and ICU loads its collation data on the
 * first locale comparison (the counts' sort); number data loads with format-count.ts. (Node's fetch
 * classes are already loaded by then: @hono/node-server takes the global Request and Response when it
 * is imported.) The modules a page loads lazily are loaded too. Nothing here reads the store (start-ui.ts
 * reads the counts the pages need, see warmPages in ui-app.ts).
 */
import type { Hono } from 'hono';

export async function prepareFirstRequest(app: Hono): Promise<void> {
  app.router.match('GET', '/');
  void 'a'.localeCompare('b');
  // The health page's Ollama probe loads the ollama package on first use (20-25 ms of CPU, 40-300 ms
  // on a busy machine); the store adapter it also loads is open already.
  await import('../adapters/ollama-client.js');
}
