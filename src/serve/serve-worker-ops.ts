/**
 * The daemon's side of the worker requests (serve-protocol.ts): embed texts with the warm embedder,
 * render SessionStart contexts with the warm table. A client whose configuration differs from the
 * daemon's is refused, never served with the daemon's own.
 */
import { describeError } from '../core/errors.js';
import type { Logger } from '../core/log.js';
import { DEFAULT_CHANGES_DAYS, renderContextTargets, type ContextTarget } from '../context/render-targets.js';
import type { Runtime } from '../app/runtime.js';
import { encodeVectors, type ContextAnswer, type EmbedAnswer, type ServeIdentity } from '../serve-client/serve-protocol.js';

export interface WorkerOps {
  embed(request: Record<string, unknown>): Promise<EmbedAnswer>;
  context(request: Record<string, unknown>): Promise<ContextAnswer>;
}

export function createWorkerOps(runtime: Pick<Runtime, 'embedder' | 'store'>, identity: ServeIdentity, logger: Logger): WorkerOps {
  const refuse = (what: string, wanted: unknown): { ok: false; reason: 'refused'; message: string } => {
    logger.log('info', `serve: refused ${what} for a client with another configuration`, { wanted, own: identity });
    return { ok: false, reason: 'refused', message: 'recall serve runs with another embedder or store' };
  };
  const fail = (what: string, err: unknown): { ok: false; reason: 'failed'; message: string } => {
    logger.log('warn', `serve: could not ${what} for a client: ${describeError(err)}`);
    return { ok: false, reason: 'failed', message: describeError(err) };
  };

  return {
    async embed(request) {
      const { expect, texts } = request;
      if (!isIdentity(expect) || !Array.isArray(texts) || !texts.every((t): t is string => typeof t === 'string')) return badRequest();
      if (!sameIdentity(expect, identity)) return refuse('to embed', expect);
      try {
        const embedder = await runtime.embedder();
        const vectors = await embedder.embed(texts);
        logger.log('info', 'serve: embedded for a client', { texts: texts.length });
        return { ok: true, embedder: embedder.id, ...encodeVectors(vectors) };
      } catch (err) {
        return fail('embed', err);
      }
    },

    async context(request) {
      const { expect, targets, maxChars, now, changesDays } = request;
      const at = typeof now === 'string' ? new Date(now) : new Date(Number.NaN);
      if (!isIdentity(expect) || !Array.isArray(targets) || !targets.every(isTarget) || typeof maxChars !== 'number' || Number.isNaN(at.getTime())) {
        return badRequest();
      }
      if (!sameIdentity(expect, identity)) return refuse('to render context', expect);
      try {
        const days = typeof changesDays === 'number' && Number.isInteger(changesDays) && changesDays >= 0 ? changesDays : DEFAULT_CHANGES_DAYS;
        const rendered = await renderContextTargets(targets, await runtime.store(), { maxChars, now: at, changesDays: days });
        logger.log('info', 'serve: rendered SessionStart context for a client', { namespaces: targets.map((t) => t.namespace) });
        return { ok: true, rendered };
      } catch (err) {
        return fail('render context', err);
      }
    },
  };
}

function badRequest(): { ok: false; reason: 'failed'; message: string } {
  return { ok: false, reason: 'failed', message: 'bad request to recall serve' };
}

function isIdentity(value: unknown): value is ServeIdentity {
  if (typeof value !== 'object' || value === null) return false;
  const identity = value as Partial<ServeIdentity>;
  return typeof identity.store === 'string' && typeof identity.embedder === 'string';
}

function sameIdentity(a: ServeIdentity, b: ServeIdentity): boolean {
  return a.embedder === b.embedder && a.store === b.store;
}

function isTarget(value: unknown): value is ContextTarget {
  if (typeof value !== 'object' || value === null) return false;
  const target = value as Partial<ContextTarget>;
  return typeof target.namespace === 'string' && (target.projectName === null || typeof target.projectName === 'string') && typeof target.withGlobal === 'boolean';
}
