/** The routes of `recall ui`: every request passes the guard, every read and write goes through the one Runtime. */
import { Hono, type Context } from 'hono';
import { RecallError, describeError } from '../core/errors.js';
import type { Logger } from '../core/log.js';
import { isMemoryType } from '../core/memory.js';
import { refreshContext } from '../context/refresh-context.js';
import { requeueFailed } from '../queue/requeue-failed.js';
import { spawnDetachedWorker } from '../hook/spawn-worker.js';
import { editMemory } from '../store/edit-memory.js';
import { forgetMemories } from '../store/forget-memories.js';
import { decideQuarantined } from '../store/review-quarantined.js';
import type { Runtime } from '../app/runtime.js';
import { renderEndlessPage } from './page-endless.js';
import { renderHealthPage } from './page-health.js';
import { renderMemoriesPage, readMemoriesQuery } from './page-memories.js';
import { renderMemoryPage } from './page-memory.js';
import { renderNextSessionPage } from './page-next-session.js';
import { countPending, renderReviewPage } from './page-review.js';
import { renderSessionsPage } from './page-sessions.js';
import { guardRequests, type UiAccess } from './ui-security.js';
import { UI_CSS, layout, type Html } from './ui-layout.js';

export interface UiDeps {
  runtime: Runtime;
  logger: Logger;
  access: UiAccess;
  env: NodeJS.ProcessEnv;
  cwd: string;
  servedBy: string;
}

export function buildUiApp(deps: UiDeps): Hono {
  const { runtime, access, logger } = deps;
  const app = new Hono();
  app.use('*', guardRequests(access));
  const page = async (c: Context, title: string, body: Html | Promise<Html>) => {
    const [pending, html] = await Promise.all([countPending(runtime), body]);
    return c.html(layout(title, pending, html));
  };

  app.get('/assets/ui.css', (c) => c.body(UI_CSS, 200, { 'Content-Type': 'text/css; charset=utf-8' }));
  app.get('/', (c) => page(c, 'Memories', renderMemoriesPage(readMemoriesQuery((name) => c.req.query(name)), runtime)));
  app.get('/memory/:id', async (c) => {
    const record = await (await runtime.store()).get(c.req.param('id'));
    if (record === null) return c.html(layout('Not found', await countPending(runtime), 'No such memory.'), 404);
    return page(c, 'Memory', renderMemoryPage(record, access.token, runtime));
  });
  app.post('/memory/:id/edit', async (c) => {
    const body = await c.req.parseBody();
    const type = String(body.type ?? '');
    if (!isMemoryType(type)) throw new RecallError('INPUT_INVALID', 'unknown memory type');
    const record = await editMemory(c.req.param('id'), { text: String(body.text ?? ''), type }, runtime);
    logger.log('info', 'edited a memory in recall ui', { id: record.id });
    await refresh([record.namespace]);
    return c.redirect(`/memory/${record.id}`, 303);
  });
  app.post('/memory/:id/forget', async (c) => {
    const id = c.req.param('id');
    const store = await runtime.store();
    const record = await runtime.withStoreLock(async () => {
      const found = await store.get(id);
      if (found === null) throw new RecallError('NOT_FOUND', `no memory with id ${id}`);
      await forgetMemories([found], store, new Date());
      return found;
    });
    logger.log('info', 'forgot a memory in recall ui', { id });
    await refresh([record.namespace]);
    return c.redirect('/', 303);
  });
  for (const action of ['approve', 'forget'] as const) {
    app.post(`/review/${action}`, async (c) => {
      const ids = (await c.req.parseBody({ all: true })).id;
      const wanted = (Array.isArray(ids) ? ids : [ids]).filter((id): id is string => typeof id === 'string' && id !== '');
      if (wanted.length === 0) throw new RecallError('INPUT_INVALID', 'no memory id given');
      const records = await decideQuarantined(action, wanted, runtime);
      logger.log('info', `${action === 'approve' ? 'approved' : 'forgot'} quarantined memories in recall ui`, { ids: wanted });
      await refresh(records.map((r) => r.namespace));
      return c.redirect('/review', 303);
    });
  }
  app.get('/review', (c) => page(c, 'Review', renderReviewPage(access.token, runtime)));
  app.get('/next-session', (c) => page(c, 'Next session', renderNextSessionPage(c.req.query('namespace') ?? '', runtime, logger)));
  app.get('/sessions', (c) => page(c, 'Sessions', renderSessionsPage(access.token, runtime, c.req.query('retried'))));
  app.post('/sessions/retry', async (c) => {
    // As `recall retry`: the failed jobs back to the queue, and a worker for them.
    const moved = requeueFailed(runtime.loaded.paths);
    const started = moved > 0 && (await spawnDetachedWorker(deps.env, runtime.loaded.paths.home)) !== 'failed';
    logger.log('info', 'failed captures queued again from recall ui', { moved, workerStarted: started });
    return c.redirect(`/sessions?retried=${moved}`, 303);
  });
  app.get('/endless', (c) => page(c, 'Endless', renderEndlessPage(runtime)));
  app.get('/health', (c) => page(c, 'Health', renderHealthPage(deps.env, deps.cwd, deps.servedBy)));

  app.onError(async (err, c) => {
    const status = err instanceof RecallError ? (err.code === 'NOT_FOUND' ? 404 : err.code === 'INPUT_INVALID' ? 400 : 500) : 500;
    if (status === 500) logger.log('error', `recall ui: ${describeError(err)}`);
    return c.html(layout('Could not do that', await countPending(runtime).catch(() => 0), describeError(err)), status);
  });

  /** The write happened: a failed refresh is logged, not a failed request. */
  async function refresh(namespaces: string[]): Promise<void> {
    try {
      await refreshContext([...new Set(namespaces)], { store: await runtime.store(), paths: runtime.loaded.paths, config: runtime.config, clock: runtime.clock });
    } catch (err) {
      logger.log('warn', `could not refresh the SessionStart context: ${describeError(err)}`, { namespaces });
    }
  }
  return app;
}
