/**
 * Renders SessionStart contexts from the store: what `refreshContext` writes, and what `recall serve`
 * renders for it with its warm table. One function for both, so the two paths give the same text.
 */
import { MEMORY_TYPES, type MemoryRecord, type MemoryType } from '../core/memory.js';
import type { GroupCount, MemoryStore } from '../core/ports.js';
import { GLOBAL_NAMESPACE } from '../project/resolve-project.js';
import { explainContext, renderContext, type ExplainedContext, type RenderContextOptions, type RenderedContext } from './render-context.js';
import { findOverriddenGlobals } from './find-overrides.js';
import { readRecentChanges } from './recent-changes.js';

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

/** The config default of context.changesDays, for callers without a config. */
export const DEFAULT_CHANGES_DAYS = 7;

interface TargetOptions {
  maxChars: number;
  now: Date;
  changesDays?: number;
  /**
   * The store's rows per namespace and type (countByNamespaceAndType, every row counted): a namespace
   * and type with none is not read. Each read costs a scan of its filter (at 100k rows 4-8 ms of CPU
   * even when nothing matches), and a project often holds two or three of the five types.
   */
  groups?: readonly GroupCount[];
}

export async function renderContextTargets(
  targets: readonly ContextTarget[],
  store: Pick<MemoryStore, 'list'>,
  options: TargetOptions,
): Promise<RenderedTarget[]> {
  let globalMemories: Promise<MemoryRecord[]> | undefined;
  const global = (): Promise<MemoryRecord[]> => (globalMemories ??= listNamespace(store, GLOBAL_NAMESPACE, options.groups));
  const rendered: RenderedTarget[] = [];
  for (const target of targets) {
    const { memories, opts } = await contextInputs(target, store, global, options);
    rendered.push({ namespace: target.namespace, ...renderContext(memories, opts) });
  }
  return rendered;
}

/** One target as `renderContextTargets` renders it, with the memory behind each line and those left out (`recall ui`). */
export async function explainContextTarget(target: ContextTarget, store: Pick<MemoryStore, 'list'>, options: TargetOptions): Promise<ExplainedContext> {
  const { memories, opts } = await contextInputs(target, store, () => listNamespace(store, GLOBAL_NAMESPACE, options.groups), options);
  return explainContext(memories, opts);
}

/** A target's memories (its own, plus global ones but session summaries) and what to render them with. */
async function contextInputs(
  target: ContextTarget,
  store: Pick<MemoryStore, 'list'>,
  global: () => Promise<MemoryRecord[]>,
  options: TargetOptions,
): Promise<{ memories: MemoryRecord[]; opts: RenderContextOptions }> {
  // The project's rows and the global ones are read at the same time.
  const [own, globals] = await Promise.all([
    target.namespace === GLOBAL_NAMESPACE ? global() : listNamespace(store, target.namespace, options.groups),
    target.withGlobal && target.namespace !== GLOBAL_NAMESPACE ? global() : Promise.resolve([]),
  ]);
  const shared = globals.filter((m) => m.type !== 'session');
  const namespaces = target.withGlobal && target.namespace !== GLOBAL_NAMESPACE ? [target.namespace, GLOBAL_NAMESPACE] : [target.namespace];
  const changes = await readRecentChanges(store, namespaces, [...own, ...shared], { now: options.now, days: options.changesDays ?? DEFAULT_CHANGES_DAYS });
  const overridden = shared.length > 0 ? findOverriddenGlobals(own, shared) : new Set<string>();
  return { memories: [...own, ...shared], opts: { maxChars: options.maxChars, now: options.now, projectName: target.projectName, changes, overridden } };
}

/** A namespace's current memories, up to LIST_LIMIT_PER_TYPE per type; with `groups`, only the types it holds. */
async function listNamespace(store: Pick<MemoryStore, 'list'>, namespace: string, groups: readonly GroupCount[] | undefined): Promise<MemoryRecord[]> {
  const held = groups === undefined ? null : new Set(groups.filter((g) => g.namespace === namespace && g.count > 0).map((g) => g.type));
  const types: readonly MemoryType[] = held === null ? MEMORY_TYPES : MEMORY_TYPES.filter((type) => held.has(type));
  const lists = await Promise.all(types.map((type) => store.list({ namespace, type, quarantine: 'exclude', limit: LIST_LIMIT_PER_TYPE })));
  return lists.flat();
}
