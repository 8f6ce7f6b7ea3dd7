/** `memory_search`: the hybrid ranking of `recall search`, scoped to this project and global by default. */
import { z } from 'zod';
import { RecallError } from '../core/errors.js';
import { MEMORY_TYPES } from '../core/memory.js';
import { searchMemories } from '../search/search-memories.js';
import { formatHits } from './format-memories.js';
import type { McpContext } from './mcp-context.js';
import { REQUIRED } from './required.js';
import { ALL_NAMESPACES, readScope } from './tool-scope.js';

export const MAX_QUERY_CHARS = 2_000;
export const MAX_RESULTS = 50;

export const memorySearchInput = z
  .object({
    query: z.string(REQUIRED).max(MAX_QUERY_CHARS).describe('What to look for, in a few words or a question ("orders schema decision").'),
    namespace: z
      .string()
      .optional()
      .describe(`Default: this project plus global. "global", or "${ALL_NAMESPACES}" for both. Other projects' memories are not reachable from here.`),
    type: z.enum(MEMORY_TYPES).optional().describe('Only memories of this type.'),
    limit: z.number().int().min(1).max(MAX_RESULTS).optional().describe('At most this many results (default: the configured search.limit, 10 unless changed).'),
  })
  .strict();

export type MemorySearchArgs = z.infer<typeof memorySearchInput>;

export const MEMORY_SEARCH_DESCRIPTION =
  'Search the memories of earlier sessions (rules, preferences, decisions, patterns, session summaries) by meaning and by exact words. ' +
  'Use it before deciding something the project may have settled already. One line per memory: [type] content (id, score 0..1).';

export async function memorySearch(args: MemorySearchArgs, ctx: McpContext): Promise<string> {
  const query = args.query.trim();
  if (query === '') throw new RecallError('INPUT_INVALID', 'the search query is empty; give a few words to look for');
  const { runtime } = ctx;
  const store = await runtime.store();
  const scope = readScope(args.namespace, ctx, { withGlobal: true });
  const filters = args.type === undefined ? scope.filters : { ...scope.filters, type: args.type };
  const hits = await searchMemories(
    { query, mode: 'hybrid', filters, limit: args.limit ?? runtime.config.search.limit, minScore: runtime.config.search.minScore },
    { store, embedder: runtime.embedder },
  );
  return formatHits(hits, query, args.type === undefined ? scope.label : `${scope.label} (type ${args.type})`, { home: ctx.project.namespace, now: runtime.clock.now() });
}
