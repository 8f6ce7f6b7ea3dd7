/** The recall MCP server: four memory tools over one McpContext. Transport-free, so tests can connect any transport. */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { InFlight } from './in-flight.js';
import type { McpContext } from './mcp-context.js';
import { MEMORY_FORGET_DESCRIPTION, memoryForget, memoryForgetInput } from './memory-forget-tool.js';
import { MEMORY_RECENT_DESCRIPTION, memoryRecent, memoryRecentInput } from './memory-recent-tool.js';
import { MEMORY_SEARCH_DESCRIPTION, memorySearch, memorySearchInput } from './memory-search-tool.js';
import { MEMORY_STORE_DESCRIPTION, memoryStore, memoryStoreInput } from './memory-store-tool.js';
import { runTool } from './tool-result.js';

export const TOOL_NAMES = ['memory_search', 'memory_store', 'memory_forget', 'memory_recent'] as const;

/** Sent to the client at initialize; agents show it to the model next to the tool list. */
export const SERVER_INSTRUCTIONS =
  'recall keeps durable memories from earlier coding sessions: golden rules, preferences, decisions, patterns and session summaries. ' +
  'Call memory_search before settling something the project may have decided already; memory_store when the user states a lasting ' +
  'rule or preference or a decision is made; memory_forget when a memory turns out wrong. Scope: this project plus global memories.';

export function createMcpServer(ctx: McpContext, inFlight: InFlight, version: string): McpServer {
  const server = new McpServer({ name: 'recall', version }, { instructions: SERVER_INSTRUCTIONS });
  const deps = { logger: ctx.logger, inFlight };
  server.registerTool(
    'memory_search',
    { title: 'Search memories', description: MEMORY_SEARCH_DESCRIPTION, inputSchema: memorySearchInput, annotations: { readOnlyHint: true, openWorldHint: false } },
    runTool('memory_search', (args) => memorySearch(args, ctx), deps),
  );
  server.registerTool(
    'memory_store',
    { title: 'Store a memory', description: MEMORY_STORE_DESCRIPTION, inputSchema: memoryStoreInput, annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false } },
    runTool('memory_store', (args) => memoryStore(args, ctx), deps),
  );
  server.registerTool(
    'memory_forget',
    { title: 'Forget a memory', description: MEMORY_FORGET_DESCRIPTION, inputSchema: memoryForgetInput, annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false } },
    runTool('memory_forget', (args) => memoryForget(args, ctx), deps),
  );
  server.registerTool(
    'memory_recent',
    { title: 'Recent memories', description: MEMORY_RECENT_DESCRIPTION, inputSchema: memoryRecentInput, annotations: { readOnlyHint: true, openWorldHint: false } },
    runTool('memory_recent', (args) => memoryRecent(args, ctx), deps),
  );
  return server;
}
