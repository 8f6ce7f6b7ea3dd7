/** `memory_recent`: the newest memories of this project (or of a given namespace). */
import { z } from 'zod';
import { formatRecent } from './format-memories.js';
import type { McpContext } from './mcp-context.js';
import { ALL_NAMESPACES, readScope } from './tool-scope.js';
import { MAX_RESULTS } from './memory-search-tool.js';

const DEFAULT_RECENT = 10;

export const memoryRecentInput = z
  .object({
    namespace: z
      .string()
      .optional()
      .describe(`Default: this project (global outside a project). "global", or "${ALL_NAMESPACES}" for both. Other projects' memories are not reachable from here.`),
    limit: z.number().int().min(1).max(MAX_RESULTS).optional().describe(`At most this many, newest first (default ${DEFAULT_RECENT}).`),
  })
  .strict();

export type MemoryRecentArgs = z.infer<typeof memoryRecentInput>;

export const MEMORY_RECENT_DESCRIPTION = 'The newest memories of this project, newest first: [type] age: content (id).';

export async function memoryRecent(args: MemoryRecentArgs, ctx: McpContext): Promise<string> {
  const { runtime } = ctx;
  const store = await runtime.store();
  const scope = readScope(args.namespace, ctx, { withGlobal: false });
  const records = await store.list({ ...scope.filters, limit: args.limit ?? DEFAULT_RECENT });
  return formatRecent(records, scope.label, { home: ctx.project.namespace, now: runtime.clock.now() });
}
