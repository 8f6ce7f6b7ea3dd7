/**
 * The changes `recall ui` makes, each a POST that redirects to a page saying what happened (flash.ts):
 * edit, add (the path of `recall add`), forget (after its confirm step, undoable), undo, approve and the
 * review's bulk decisions, retry of failed captures. Each write refreshes the SessionStart context of the
 * projects it touched. The confirm step before a forget is a GET page of its own (`/forget?id=...`),
 * which review's Forget buttons redirect to.
 */
import type { Hono } from 'hono';
import { RecallError, describeError } from '../core/errors.js';
import { isMemoryType, type MemoryRecord, type MemoryOrigin } from '../core/memory.js';
import { refreshContext } from '../context/refresh-context.js';
import { GLOBAL_NAMESPACE } from '../project/resolve-project.js';
import { requeueFailed } from '../queue/requeue-failed.js';
import { spawnDetachedWorker } from '../hook/spawn-worker.js';
import { editMemory } from '../store/edit-memory.js';
import { decideQuarantined } from '../store/review-quarantined.js';
import { forgetMemories, undoRelinks } from '../store/forget-memories.js';
import { storeManualMemory } from '../store/store-manual-memory.js';
import type { PageRenderer, UiDeps } from './ui-deps.js';
import { safeBack, withNotice } from './flash.js';
import type { Html } from './ui-layout.js';
import type { UndoStash } from './undo-stash.js';
import { unspellHidden } from './visible-text.js';

interface WriteDeps extends UiDeps {
  page: PageRenderer;
  undo: UndoStash;
  confirm: (records: readonly MemoryRecord[], back: string) => Html;
}

type Body = Record<string, string | File | Array<string | File>>;

function field(body: Body, name: string): string {
  const value = body[name];
  return typeof value === 'string' ? value : '';
}

function ids(body: Body): string[] {
  const value = body.id;
  return (Array.isArray(value) ? value : [value]).filter((id): id is string => typeof id === 'string' && id !== '');
}

/** Memories one confirm step names: more than a review page holds. */
const CONFIRM_MAX = 200;

export function addWriteRoutes(app: Hono, deps: WriteDeps): void {
  const { runtime, logger } = deps;

  app.get('/forget', async (c) => {
    const wanted = c.req.queries('id')?.filter((id) => id !== '').slice(0, CONFIRM_MAX) ?? [];
    if (wanted.length === 0) throw new RecallError('INPUT_INVALID', 'no memory chosen: tick the boxes of the memories first');
    const records = await (await runtime.store()).getMany(wanted);
    if (records.length === 0) throw new RecallError('NOT_FOUND', 'no such memory (it may have been forgotten already)');
    const back = safeBack(c.req.query('back') ?? '/review');
    return deps.page(c, records.length === 1 ? 'Forget this memory?' : `Forget ${records.length} memories?`, deps.confirm(records, back));
  });

  /** The write happened: a failed refresh is logged, not a failed request. */
  const refresh = async (namespaces: string[]): Promise<void> => {
    try {
      await refreshContext([...new Set(namespaces)], { store: await runtime.store(), paths: runtime.loaded.paths, config: runtime.config, clock: runtime.clock });
    } catch (err) {
      logger.log('warn', `could not refresh the SessionStart context: ${describeError(err)}`, { namespaces });
    }
  };

  app.post('/memory/:id/edit', async (c) => {
    const body = await c.req.parseBody();
    const type = field(body, 'type');
    if (!isMemoryType(type)) throw new RecallError('INPUT_INVALID', 'unknown memory type');
    // The box showed hidden characters spelled out (page-memory.ts): they are characters again here.
    const text = field(body, 'spelled') === '1' ? unspellHidden(field(body, 'text')) : field(body, 'text');
    const record = await editMemory(c.req.param('id'), { text, type }, runtime);
    logger.log('info', 'edited a memory in recall ui', { id: record.id });
    await refresh([record.namespace]);
    return c.redirect(withNotice(`/memory/${record.id}`, record.status === 'quarantined' ? 'edited-held' : 'edited'), 303);
  });

  app.post('/memory/add', async (c) => {
    const body = await c.req.parseBody();
    const type = field(body, 'type');
    if (!isMemoryType(type)) throw new RecallError('INPUT_INVALID', 'unknown memory type');
    const store = await runtime.store();
    const wanted = field(body, 'namespace') || GLOBAL_NAMESPACE;
    // As `recall add --namespace`: an existing project keeps the folder its other memories recorded.
    const sibling = wanted === GLOBAL_NAMESPACE ? undefined : (await store.list({ namespace: wanted, limit: 1 }))[0];
    if (wanted !== GLOBAL_NAMESPACE && sibling === undefined) throw new RecallError('INPUT_INVALID', `no project ${wanted} in the store`);
    const origin: MemoryOrigin = { namespace: wanted, projectRoot: sibling?.projectRoot ?? null, sessionId: null, source: 'manual' };
    const outcome = await storeManualMemory({ text: field(body, 'text'), type }, origin, runtime);
    logger.log('info', 'manual memory from recall ui', outcome);
    await refresh([wanted]);
    if (outcome.id === null) return c.redirect(withNotice('/', 'known'), 303);
    return c.redirect(withNotice(`/memory/${outcome.id}`, outcome.status !== 'stored' ? 'known' : outcome.quarantined === true ? 'added-held' : 'added', { redacted: outcome.redactions }), 303);
  });

  app.post('/forget', async (c) => {
    const body = await c.req.parseBody({ all: true });
    const wanted = ids(body);
    if (wanted.length === 0) throw new RecallError('INPUT_INVALID', 'no memory id given');
    const store = await runtime.store();
    const { records, relinked } = await runtime.withStoreLock(async () => {
      const found = await store.getMany(wanted);
      if (found.length === 0) throw new RecallError('NOT_FOUND', `no memory with id ${wanted.join(', ')}`);
      return { records: found, relinked: (await forgetMemories(found, store, new Date())).relinked };
    });
    const back = safeBack(field(body, 'back'));
    const key = deps.undo.keep({ records, relinked, back });
    logger.log('info', 'forgot memories in recall ui', { ids: records.map((r) => r.id) });
    await refresh(records.map((r) => r.namespace));
    // Back to a memory's own page that is gone now: the list instead.
    const to = records.some((r) => back.startsWith(`/memory/${r.id}`)) ? '/' : back;
    return c.redirect(withNotice(to, 'forgot', { n: records.length, undo: key }), 303);
  });

  app.post('/undo', async (c) => {
    const body = await c.req.parseBody();
    const forgotten = deps.undo.take(field(body, 'key'));
    if (forgotten === null) return c.redirect(withNotice('/', 'undo-gone'), 303);
    const { records } = forgotten;
    const store = await runtime.store();
    const embedder = await runtime.embedder();
    const vectors = await embedder.embed(records.map((r) => r.content));
    await runtime.withStoreLock(async () => {
      await store.restore(records.map((r, i) => ({ ...r, vector: vectors[i] as Float32Array })), embedder.id);
      await undoRelinks(forgotten.relinked, store, new Date());
    });
    logger.log('info', 'restored forgotten memories in recall ui', { ids: records.map((r) => r.id) });
    await refresh(records.map((r) => r.namespace));
    // Back where the forget was asked (review, say); from the list or a memory's page, to the memory itself.
    const from = forgotten.back ?? '/';
    const to = from.startsWith('/review') ? from : records.length === 1 ? `/memory/${records[0]!.id}` : from;
    return c.redirect(withNotice(to, 'restored', { n: records.length }), 303);
  });

  app.post('/review/approve', async (c) => {
    const body = await c.req.parseBody({ all: true });
    const wanted = ids(body);
    if (wanted.length === 0) throw new RecallError('INPUT_INVALID', 'no memory id given');
    const records = await decideQuarantined('approve', wanted, runtime);
    logger.log('info', 'approved quarantined memories in recall ui', { ids: wanted });
    await refresh(records.map((r) => r.namespace));
    return c.redirect(withNotice(safeBack(field(body, 'back') || '/review'), 'approved', { n: records.length }), 303);
  });

  app.post('/review/decide', async (c) => {
    const body = await c.req.parseBody({ all: true });
    const one = /^(approve|forget):(.+)$/.exec(field(body, 'one'));
    const action = one ? one[1] : field(body, 'action');
    const wanted = one ? [one[2]!] : ids(body);
    const back = safeBack(field(body, 'back') || '/review');
    if (wanted.length === 0) throw new RecallError('INPUT_INVALID', 'no memory chosen: tick the boxes of the memories first');
    if (action === 'approve') {
      const records = await decideQuarantined('approve', wanted, runtime);
      logger.log('info', 'approved quarantined memories in recall ui', { ids: wanted });
      await refresh(records.map((r) => r.namespace));
      return c.redirect(withNotice(back, 'approved', { n: records.length }), 303);
    }
    if (action !== 'forget') throw new RecallError('INPUT_INVALID', 'approve or forget?');
    // The confirm step is a page of its own (GET), so reloading it or going back never sends a form again.
    const params = new URLSearchParams([...wanted.slice(0, CONFIRM_MAX).map((id): [string, string] => ['id', id]), ['back', back]]);
    return c.redirect(`/forget?${params.toString()}`, 303);
  });

  app.post('/sessions/retry', async (c) => {
    // As `recall retry`: the failed jobs back to the queue, and a worker for them.
    const moved = requeueFailed(runtime.loaded.paths);
    const started = moved > 0 && (await spawnDetachedWorker(deps.env, runtime.loaded.paths.home));
    logger.log('info', 'failed captures queued again from recall ui', { moved, workerStarted: started });
    return c.redirect(`/sessions?retried=${moved}`, 303);
  });
}
