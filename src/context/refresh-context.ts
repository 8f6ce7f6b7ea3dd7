/**
 * Re-renders the SessionStart context files of namespaces whose memories changed, so the hook only
 * has to read one small file (it never opens the store).
 *
 * - A project namespace: its own memories, plus global ones (session summaries aside) when
 *   `config.context.includeGlobal`.
 * - `global`: the global file (used when a session runs outside any project, and, when global memories
 *   go into project sessions, by a project that has no file of its own yet) and then every project file
 *   already on disk, so none keeps a stale copy.
 *
 * A running `recall serve` with the same embedder and store renders them with its warm table when it can; this
 * process writes the files either way.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '../config/schema.js';
import { systemClock, type Clock, type MemoryStore } from '../core/ports.js';
import type { StatePaths } from '../core/state-paths.js';
import { GLOBAL_NAMESPACE } from '../project/resolve-project.js';
import { writeFileAtomic } from '../core/atomic-write.js';
import { CONTEXT_FILE_VERSION, contextFileName, contextFilePath, MAX_CONTEXT_FILE_BYTES, parseContextFile, serializeContextFile } from './context-file.js';
import { DEFAULT_CHANGES_DAYS, renderContextTargets, type ContextTarget, type RenderedTarget } from './render-targets.js';

export { LIST_LIMIT_PER_TYPE } from './render-targets.js';

/** Renders the targets somewhere with a warm table, or answers null (then they are rendered here). */
export type RenderContextElsewhere = (targets: readonly ContextTarget[], options: { maxChars: number; now: Date; changesDays?: number }) => Promise<RenderedTarget[] | null>;

export interface RefreshContextDeps {
  /** Only reads: the hook's context never needs more than `list`. */
  store: Pick<MemoryStore, 'list'>;
  paths: Pick<StatePaths, 'contextDir'>;
  /** Renders elsewhere first (a running `recall serve`: Runtime.renderContextElsewhere); null or absent, or when it answers null: render here. */
  renderElsewhere?: RenderContextElsewhere | null;
  /** changesDays absent: DEFAULT_CHANGES_DAYS. */
  config: { context: Pick<Config['context'], 'maxChars' | 'includeGlobal'> & Partial<Pick<Config['context'], 'changesDays'>> };
  clock?: Clock;
}

export async function refreshContext(namespaces: readonly string[], deps: RefreshContextDeps): Promise<void> {
  const now = (deps.clock ?? systemClock).now();
  const targets = planContextRefresh(namespaces, deps.paths.contextDir, deps.config.context.includeGlobal);
  if (targets.length === 0) return;
  const options = { maxChars: deps.config.context.maxChars, now, changesDays: deps.config.context.changesDays ?? DEFAULT_CHANGES_DAYS };
  const rendered =
    (await deps.renderElsewhere?.(targets, options)) ?? (await renderContextTargets(targets, deps.store, options));
  for (const file of rendered) writeContext(deps.paths.contextDir, file, now, file.namespace === GLOBAL_NAMESPACE && deps.config.context.includeGlobal);
}

/** Which context files a change to `namespaces` touches: global first, then projects by name. */
export function planContextRefresh(namespaces: readonly string[], contextDir: string, includeGlobal: boolean): ContextTarget[] {
  const targets: ContextTarget[] = [];
  const projects = new Set(namespaces.filter((ns) => ns !== GLOBAL_NAMESPACE));
  if (namespaces.includes(GLOBAL_NAMESPACE)) {
    targets.push({ namespace: GLOBAL_NAMESPACE, projectName: null, withGlobal: false });
    if (includeGlobal) for (const ns of existingProjectNamespaces(contextDir)) projects.add(ns);
  }
  for (const namespace of [...projects].sort()) targets.push({ namespace, projectName: projectNameOf(namespace), withGlobal: includeGlobal });
  return targets;
}

function writeContext(contextDir: string, file: RenderedTarget, now: Date, servesProjects: boolean): void {
  // Written even when empty, so a project with nothing to say is still known to the global refresh.
  writeFileAtomic(
    contextFilePath(contextDir, file.namespace),
    serializeContextFile({
      version: CONTEXT_FILE_VERSION, namespace: file.namespace, generatedAt: now.toISOString(),
      text: file.text, included: file.included, omitted: file.omitted,
      ...(servesProjects ? { servesProjects } : {}),
    }),
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
