/**
 * Re-renders the SessionStart context files of namespaces whose memories changed, so the hook only
 * has to read one small file (it never opens the store).
 *
 * - A project namespace: its own memories, plus global ones (session summaries aside) when
 *   `config.context.includeGlobal`.
 * - `global`: the global file (used when a session runs outside any project) and, when global
 *   memories go into project files, every project file already on disk, so none keeps a stale copy.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '../config/schema.js';
import { MEMORY_TYPES, type MemoryRecord, type MemoryType } from '../core/memory.js';
import { systemClock, type Clock, type MemoryStore } from '../core/ports.js';
import type { StatePaths } from '../core/state-paths.js';
import { GLOBAL_NAMESPACE } from '../project/resolve-project.js';
import { writeFileAtomic } from '../queue/atomic-write.js';
import { CONTEXT_FILE_VERSION, contextFileName, contextFilePath, MAX_CONTEXT_FILE_BYTES, parseContextFile, serializeContextFile } from './context-file.js';
import { renderContext } from './render-context.js';

export interface RefreshContextDeps {
  /** Only reads: the hook's context never needs more than `list`. */
  store: Pick<MemoryStore, 'list'>;
  paths: Pick<StatePaths, 'contextDir'>;
  config: Pick<Config, 'context'>;
  clock?: Clock;
}

/**
 * Rows read per namespace and type. Per type, so hundreds of newer patterns or session summaries
 * can never push an old rule out of view; far more than a 10,000-character context can show.
 */
export const LIST_LIMIT_PER_TYPE = 500;

export async function refreshContext(namespaces: readonly string[], deps: RefreshContextDeps): Promise<void> {
  const now = (deps.clock ?? systemClock).now();
  const { includeGlobal } = deps.config.context;
  let globalMemories: Promise<MemoryRecord[]> | undefined;
  const global = (): Promise<MemoryRecord[]> => (globalMemories ??= listNamespace(deps.store, GLOBAL_NAMESPACE, MEMORY_TYPES));

  const projects = new Set(namespaces.filter((ns) => ns !== GLOBAL_NAMESPACE));
  if (namespaces.includes(GLOBAL_NAMESPACE)) {
    writeContext(deps, GLOBAL_NAMESPACE, await global(), null, now);
    if (includeGlobal) for (const ns of existingProjectNamespaces(deps.paths.contextDir)) projects.add(ns);
  }
  for (const namespace of [...projects].sort()) {
    const own = await listNamespace(deps.store, namespace, MEMORY_TYPES);
    const shared = includeGlobal ? (await global()).filter((m) => m.type !== 'session') : [];
    writeContext(deps, namespace, [...own, ...shared], projectNameOf(namespace), now);
  }
}

async function listNamespace(store: Pick<MemoryStore, 'list'>, namespace: string, types: readonly MemoryType[]): Promise<MemoryRecord[]> {
  const lists = await Promise.all(types.map((type) => store.list({ namespace, type, limit: LIST_LIMIT_PER_TYPE })));
  return lists.flat();
}

function writeContext(deps: RefreshContextDeps, namespace: string, memories: readonly MemoryRecord[], projectName: string | null, now: Date): void {
  const rendered = renderContext(memories, { maxChars: deps.config.context.maxChars, now, projectName });
  // Written even when empty, so a project with nothing to say is still known to the global refresh.
  writeFileAtomic(
    contextFilePath(deps.paths.contextDir, namespace),
    serializeContextFile({ version: CONTEXT_FILE_VERSION, namespace, generatedAt: now.toISOString(), ...rendered }),
    0o600,
  );
}

/** Namespaces of the project context files on disk; damaged or foreign files are passed over. */
function existingProjectNamespaces(contextDir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(contextDir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  const found: string[] = [];
  for (const name of names) {
    if (!name.endsWith('.json') || name.startsWith('.')) continue;
    try {
      const text = readFileSync(join(contextDir, name), 'utf8');
      if (text.length > MAX_CONTEXT_FILE_BYTES) continue;
      const file = parseContextFile(text);
      if (file && file.namespace.startsWith('project:') && contextFileName(file.namespace) === name) {
        found.push(file.namespace);
      }
    } catch {
      // Vanished or unreadable: the next capture in that project writes it again.
    }
  }
  return found;
}

/** `project:api-3f2a9c01` -> `api`. */
export function projectNameOf(namespace: string): string | null {
  const match = /^project:(.*)-[0-9a-f]{8}$/.exec(namespace);
  return match ? match[1]! : null;
}
