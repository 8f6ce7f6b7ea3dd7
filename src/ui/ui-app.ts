/** The routes of `recall ui`: every request passes the guard, every read and write goes through the one Runtime. */
import { Hono } from 'hono';
import { html } from 'hono/html';
import { RecallError, describeError } from '../core/errors.js';
import { renderNotice } from './flash.js';
import { renderEndlessPage } from './page-endless.js';
import { renderHealthPage } from './page-health.js';
import { renderConfirmForget } from './page-confirm-forget.js';
import { renderMemoriesPage, readMemoriesQuery } from './page-memories.js';
import { renderMemoryPage } from './page-memory.js';
import { renderNextSessionPage } from './page-next-session.js';
import { REVIEW_PAGE_SIZE, countPending, readHeld, readReviewQuery, renderReviewPage } from './page-review.js';
import { renderSessionsPage } from './page-sessions.js';
import { UI_CSS } from './ui-css.js';
import type { PageRenderer, UiDeps } from './ui-deps.js';
import { guardRequests } from './ui-security.js';
import { layout } from './ui-layout.js';
import { visible } from './visible-text.js';
import { addWriteRoutes } from './ui-writes.js';
import { createUndoStash } from './undo-stash.js';
import { createScreenMemo } from './screen-memo.js';
import { screenMemory } from '../store/screen-memory.js';
import { createVersionedCache, type Cached } from './versioned-cache.js';
import { keepEmbedders, probeEmbedder, probeStore } from '../doctor/probe-services.js';
import type { Runtime } from '../app/runtime.js';


export interface UiApp {
  app: Hono;
  /**
   * Reads what nearly every page needs from the rows (warmPages); `recall ui` waits for it before it
   * prints its URL, so no request shares the CPU with it. A failure is left to the pages.
   */
  warm(): Promise<void>;
  /** Settles once the first page (not the code trade's redirect, nor the stylesheet) has been answered. */
  firstPageAnswered: Promise<void>;
}

export function buildUiApp(deps: UiDeps): UiApp {
  const { runtime, access, logger } = deps;
  const token = access.token;
  const app = new Hono();
  const cached = createVersionedCache(() => runtime.store());
  const memo = createScreenMemo();
  const embedders = keepEmbedders();
  let answering = 0;
  const idle = () => answering === 0;
  let pageAnswered = (): void => undefined;
  const firstPageAnswered = new Promise<void>((resolve) => (pageAnswered = resolve));
  app.use('*', async (c, next) => {
    answering += 1;
    try {
      await next();
    } finally {
      answering -= 1;
      if (c.res.status !== 303 && c.res.headers.get('Content-Type')?.startsWith('text/html') === true) pageAnswered();
    }
  });
  app.use('*', guardRequests(access));
  const page: PageRenderer = async (c, title, body, status = 200) => {
    const [pending, html] = await Promise.all([countPending(runtime, cached), body]);
    return c.html(layout(title, pending, html, renderNotice((name) => c.req.query(name), token)), status);
  };

  app.get('/assets/ui.css', (c) => c.body(UI_CSS, 200, { 'Content-Type': 'text/css; charset=utf-8' }));
  app.get('/', (c) => page(c, 'Memories', renderMemoriesPage(readMemoriesQuery((name) => c.req.query(name)), runtime, token)));
  app.get('/memory/:id', async (c) => {
    const record = await (await runtime.store()).get(c.req.param('id'));
    if (record === null) return page(c, 'Not found', html`<p id="not-found">No such memory (it may have been forgotten). <a href="/">All memories</a></p>`, 404);
    return page(c, 'Memory', renderMemoryPage(record, token, runtime));
  });
  app.get('/memory/:id/forget', async (c) => {
    const record = await (await runtime.store()).get(c.req.param('id'));
    if (record === null) return page(c, 'Not found', html`<p id="not-found">No such memory (it may have been forgotten). <a href="/">All memories</a></p>`, 404);
    return page(c, 'Forget this memory?', renderConfirmForget([record], token, '/', `/memory/${record.id}`));
  });
  app.get('/review', (c) => page(c, 'Review', renderReviewPage(readReviewQuery((name) => c.req.query(name)), token, runtime, cached, memo, idle)));
  app.get('/next-session', (c) => page(c, 'Next session', renderNextSessionPage(c.req.query('namespace') ?? '', runtime, logger, cached)));
  app.get('/sessions', (c) => page(c, 'Sessions', renderSessionsPage(token, runtime, c.req.query('retried'))));
  app.get('/endless', (c) => page(c, 'Endless', renderEndlessPage(runtime)));
  const healthStore: typeof probeStore = (location) => cached('health-store', () => probeStore(location));
  const healthEmbedder: typeof probeEmbedder = (config, paths) => probeEmbedder(config, paths, undefined, embedders);
  app.get('/health', (c) => page(c, 'Health', renderHealthPage(deps.env, deps.cwd, deps.servedBy, healthStore, healthEmbedder)));
  addWriteRoutes(app, { ...deps, page, undo: createUndoStash(), confirm: (records, back) => renderConfirmForget(records, token, back, back) });

  app.onError(async (err, c) => {
    const status = err instanceof RecallError ? (err.code === 'NOT_FOUND' ? 404 : err.code === 'INPUT_INVALID' ? 400 : 500) : 500;
    if (status === 500) logger.log('error', `recall ui: ${describeError(err)}`);
    return c.html(layout('Could not do that', await countPending(runtime).catch(() => 0), renderError(err, status)), status);
  });
  return { app, warm: () => warmPages(runtime, cached), firstPageAnswered };
}

/** What went wrong in words, with the way back: a refused input keeps what was typed behind the browser's Back button. */
function renderError(err: unknown, status: number) {
  if (status === 500) return html`<p id="error" role="alert" class="fail">${visible(describeError(err))}</p><p>The log has the details (<code>recall doctor</code> shows where it is). <a href="/">All memories</a></p>`;
  const message = (err instanceof RecallError ? err.message : describeError(err)).replace(/\.$/, '');
  return html`<p id="error" role="alert" class="fail">${visible(message.charAt(0).toUpperCase() + message.slice(1))}.</p><p>Nothing was changed. Go back with your browser's Back button to change it (what you typed is kept there), or go to <a href="/">all memories</a>.</p>`;
}

/**
 * Held memories read (and the first review page's screened once) before the URL is printed, up to
 * this many: at 1,000 about 50 ms of CPU for the read and 35 for the screen's first runs, which the
 * review page's first look paid otherwise. More than this are left to the page (it pages and screens them a
 * slice at a time).
 */
const HELD_READ_AHEAD_MAX = 2_000;

/**
 * What nearly every page reads from the rows, read once before the first request: the counts per
 * project and type (kept in the state dir per table version, see group-counts-file.ts; counted anew
 * after a write, 30-90 ms of CPU at 100k memories) and the count of held memories. Read in the
 * background as the page started, they took CPU from its first requests instead (bench/ui-first-page.mjs
 * at 100k: health 563 ms against 152, next session 728 against 339), so they are read before the URL is
 * printed, and with them the full-text index is loaded (search's first request paid for it) and, when
 * there are not many, the held memories read and the first review page's rows screened once.
 */
async function warmPages(runtime: Runtime, cached: Cached): Promise<void> {
  try {
    const store = await runtime.store();
    const [, pending] = await Promise.all([store.countByNamespaceAndType(), countPending(runtime, cached), store.warmTextIndex()]);
    if (pending > 0 && pending <= HELD_READ_AHEAD_MAX) {
      // Screened once, not kept: the first look answers as it would without this (its rows' own
      // reasons, or all counted when few are left), with the screen's expressions compiled and warm.
      for (const record of (await readHeld(runtime, cached)).slice(0, REVIEW_PAGE_SIZE)) screenMemory(record.content, record);
    }
  } catch {
    // A page that needs them reads them again and reports what failed.
  }
}
