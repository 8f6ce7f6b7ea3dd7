/**
 * The one-time costs of a process's first request, paid before `recall ui` prints its URL, so the
 * first page is as quick as the ones after it. Without this the first request spent 60-110 ms CPU more
 * than the next, whatever the store's size (bench/ui-first-page.mjs): Node loads its fetch classes
 * (undici: Request, Response, Headers) on first use, Hono builds its route matcher on the first match,
 * and ICU loads its collation data on the first locale comparison (the counts' sort). Nothing here
 * reads the store: reads at start take CPU from the first requests on a small machine.
 */
import type { Hono } from 'hono';

export function prepareFirstRequest(app: Hono): void {
  void new Response(new Request('http://127.0.0.1/', { headers: new Headers({ accept: 'text/html' }) }).url).headers;
  app.router.match('GET', '/');
  void 'a'.localeCompare('b');
}
