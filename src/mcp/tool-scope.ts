/** Which namespaces a tool call reads or writes, from its optional `namespace` argument. */
import { RecallError } from '../core/errors.js';
import { GLOBAL_NAMESPACE } from '../project/resolve-project.js';
import type { MemoryFilters } from '../core/ports.js';
import type { MemoryOrigin } from '../core/memory.js';
import { resolveScope } from '../search/resolve-scope.js';
import { namespaceLabel } from '../cli/format.js';
import type { McpContext } from './mcp-context.js';

/** The `namespace` value that reads every namespace. */
export const ALL_NAMESPACES = 'all';

export interface ToolScope {
  filters: MemoryFilters;
  /** For result text: `project shop and global`, `global`, `all namespaces`. */
  label: string;
}

/**
 * No (or an empty) namespace: the server's project, plus global memories when `withGlobal` (outside a project:
 * global alone). `all`: every namespace. Anything else must be the server's project, `global` or a
 * namespace that holds memories (an unknown one is an error that suggests close names).
 */
export async function readScope(namespace: string | undefined, ctx: McpContext, options: { withGlobal: boolean }): Promise<ToolScope> {
  const home = ctx.project.namespace;
  const value = namespace?.trim();
  if (!value) {
    if (home === GLOBAL_NAMESPACE) return { filters: { namespace: GLOBAL_NAMESPACE }, label: GLOBAL_NAMESPACE };
    if (!options.withGlobal) return { filters: { namespace: home }, label: projectLabel(home) };
    return { filters: { namespaces: [home, GLOBAL_NAMESPACE] }, label: `${projectLabel(home)} and global` };
  }
  if (value === ALL_NAMESPACES) return { filters: {}, label: 'all namespaces' };
  const resolved = await knownNamespace(value, ctx);
  return { filters: { namespace: resolved }, label: labelOf(resolved) };
}

/**
 * Where `memory_store` writes: the server's project by default (global outside a project), or the
 * given namespace; a project namespace keeps the root its other memories recorded.
 */
export async function writeOrigin(namespace: string | undefined, ctx: McpContext): Promise<MemoryOrigin> {
  const mcp = { sessionId: null, source: 'mcp' };
  const home = ctx.project;
  // An empty namespace means the default, as if it were left out.
  const value = namespace?.trim() || home.namespace;
  if (value === home.namespace) return { namespace: home.namespace, projectRoot: home.root, ...mcp };
  if (value === ALL_NAMESPACES) throw new RecallError('INPUT_INVALID', `"${ALL_NAMESPACES}" reads every namespace; a memory is stored in one (for example global)`);
  const resolved = await knownNamespace(value, ctx);
  if (resolved === GLOBAL_NAMESPACE) return { namespace: GLOBAL_NAMESPACE, projectRoot: null, ...mcp };
  const sibling = (await (await ctx.runtime.store()).list({ namespace: resolved, limit: 1 }))[0];
  return { namespace: resolved, projectRoot: sibling?.projectRoot ?? null, ...mcp };
}

/** `project shop`, `global`, or the namespace itself. */
export function labelOf(namespace: string): string {
  return namespace.startsWith('project:') ? projectLabel(namespace) : namespace;
}

function projectLabel(namespace: string): string {
  return `project ${namespaceLabel(namespace)}`;
}

async function knownNamespace(value: string, ctx: McpContext): Promise<string> {
  if (value === ctx.project.namespace) return value;
  const store = await ctx.runtime.store();
  const filters = await resolveScope({ namespace: value }, { store, cwd: ctx.cwd, now: ctx.runtime.clock.now() });
  return filters.namespace ?? value;
}
