/**
 * Renders SessionStart contexts from the store: what `refreshContext` writes, and what `recall serve`
 * renders for it with its warm table. One function for both, so the two paths give the same text.
 */
import { MEMORY_TYPES, type MemoryRecord, type MemoryType } from '../core/memory.js';
import type { MemoryStore } from '../core/ports.js';
import { GLOBAL_NAMESPACE } from '../project/resolve-project.js';
import { explainContext, renderContext, type ExplainedContext, type RenderedContext } from './render-context.js';

/** One SessionStart context to render: a namespace's memories, plus global ones when `withGlobal`. */
export interface ContextTarget {
  namespace: string;
  /** Shown in the title; null for the global context. */
  projectName: string | null;
  /** Add global memories (session summaries aside). */
  withGlobal: boolean;
}

export interface RenderedTarget extends RenderedContext {
  namespace: string;
}

/**
 * Rows read per namespace and type. Per type, so hundreds of newer patterns or session summaries
 * can never push an old rule out of view; far more than a 10,000-character context can show.
 */
export const LIST_LIMIT_PER_TYPE = 500;

export async function renderContextTargets(
  targets: readonly ContextTarget[],
  store: Pick<MemoryStore, 'list'>,
  options: { maxChars: number; now: Date },
): Promise<RenderedTarget[]> {
  let globalMemories: Promise<MemoryRecord[]> | undefined;
  const global = (): Promise<MemoryRecord[]> => (globalMemories ??= listNamespace(store, GLOBAL_NAMESPACE, MEMORY_TYPES));
  const rendered: RenderedTarget[] = [];
  for (const target of targets) {
    const own = target.namespace === GLOBAL_NAMESPACE ? await global() : await listNamespace(store, target.namespace, MEMORY_TYPES);
    const shared = target.withGlobal ? (await global()).filter((m) => m.type !== 'session') : [];
    const context = renderContext([...own, ...shared], { maxChars: options.maxChars, now: options.now, projectName: target.projectName });
    rendered.push({ namespace: target.namespace, ...context });
  }
  return rendered;
}

/** One target as `renderContextTargets` renders it, with the memory behind each line and those left out (`recall ui`). */
export async function explainContextTarget(target: ContextTarget, store: Pick<MemoryStore, 'list'>, options: { maxChars: number; now: Date }): Promise<ExplainedContext> {
  const own = await listNamespace(store, target.namespace, MEMORY_TYPES);
  const shared = target.withGlobal && target.namespace !== GLOBAL_NAMESPACE ? (await listNamespace(store, GLOBAL_NAMESPACE, MEMORY_TYPES)).filter((m) => m.type !== 'session') : [];
  return explainContext([...own, ...shared], { maxChars: options.maxChars, now: options.now, projectName: target.projectName });
}

async function listNamespace(store: Pick<MemoryStore, 'list'>, namespace: string, types: readonly MemoryType[]): Promise<MemoryRecord[]> {
  const lists = await Promise.all(types.map((type) => store.list({ namespace, type, quarantine: 'exclude', limit: LIST_LIMIT_PER_TYPE })));
  return lists.flat();
}
