/**
 * Which namespaces a tool call reads or writes, from its optional `namespace` argument. The MCP server is
 * confined to its own project and the global memories: an agent in one project can neither read nor change
 * another project's memories through it (the terminal's `recall search --project` still can).
 */
import { RecallError } from '../core/errors.js';
import { GLOBAL_NAMESPACE } from '../project/resolve-project.js';
import type { MemoryFilters } from '../core/ports.js';
import type { MemoryOrigin } from '../core/memory.js';
import { namespaceLabel } from '../core/format.js';
import type { McpContext } from './mcp-context.js';

/** The `namespace` value that reads everything the server may read: its project and global. */
export const ALL_NAMESPACES = 'all';

export interface ToolScope {
  filters: MemoryFilters;
  /** For result text: `project shop and global`, `global`. */
  label: string;
}

/**
 * No (or an empty) namespace: the server's project, plus global memories when `withGlobal` (outside a project:
 * global alone). `all`: the project and global. `global` or the project's own namespace (or folder name): that
 * one. Any other namespace is refused, whether or not it holds memories.
 */
export function readScope(namespace: string | undefined, ctx: McpContext, options: { withGlobal: boolean }): ToolScope {
  const home = ctx.project.namespace;
  const value = namespace?.trim();
  if (!value) return options.withGlobal ? homeAndGlobal(home) : single(home);
  if (value === ALL_NAMESPACES) return homeAndGlobal(home);
  return single(confined(value, ctx));
}

/**
 * Where `memory_store` writes: the server's project by default (global outside a project), or global. The
 * caller quarantines what an MCP client writes to global until the user approves it.
 */
export function writeOrigin(namespace: string | undefined, ctx: McpContext): MemoryOrigin {
  const mcp = { sessionId: null, source: 'mcp' };
  const home = ctx.project;
  // An empty namespace means the default, as if it were left out.
  const value = namespace?.trim() || home.namespace;
  if (value === ALL_NAMESPACES) throw new RecallError('INPUT_INVALID', `"${ALL_NAMESPACES}" reads this project and global; a memory is stored in one of them`);
  const resolved = confined(value, ctx);
  if (resolved === GLOBAL_NAMESPACE) return { namespace: GLOBAL_NAMESPACE, projectRoot: null, ...mcp };
  return { namespace: home.namespace, projectRoot: home.root, ...mcp };
}

/** `project shop`, `global`, or the namespace itself. */
export function labelOf(namespace: string): string {
  return namespace.startsWith('project:') ? projectLabel(namespace) : namespace;
}

/** What this server may touch, in words, for refusals. */
export function confinementLabel(ctx: McpContext): string {
  const home = ctx.project.namespace;
  return home === GLOBAL_NAMESPACE ? 'global memories' : `${projectLabel(home)} and global memories`;
}

function projectLabel(namespace: string): string {
  return `project ${namespaceLabel(namespace)}`;
}

// Quarantined memories never reach an agent: every read the server makes leaves them out.
function single(namespace: string): ToolScope {
  return { filters: { namespace, quarantine: 'exclude' }, label: labelOf(namespace) };
}

function homeAndGlobal(home: string): ToolScope {
  if (home === GLOBAL_NAMESPACE) return single(GLOBAL_NAMESPACE);
  return { filters: { namespaces: [home, GLOBAL_NAMESPACE], quarantine: 'exclude' }, label: `${projectLabel(home)} and global` };
}

/** The namespace `value` names (`global`, the project's namespace or its folder name); refused otherwise. */
function confined(value: string, ctx: McpContext): string {
  const home = ctx.project.namespace;
  if (value === GLOBAL_NAMESPACE) return value;
  if (home !== GLOBAL_NAMESPACE && (value === home || value === namespaceLabel(home) || value === ctx.project.name)) return home;
  throw new RecallError(
    'INPUT_INVALID',
    `this server reads and writes only ${confinementLabel(ctx)}; "${value}" is outside them (\`recall search --project\` in a terminal reads other projects)`,
  );
}
