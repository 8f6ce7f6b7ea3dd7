/**
 * The MCP server entry recall registers with an agent, and how to recognise it again. Pure.
 *
 * Claude Code (`~/.claude.json` top-level `mcpServers`, or a project's `.mcp.json`) and Factory droid
 * (`~/.factory/mcp.json`, or a project's `.factory/mcp.json`) share the shape
 *   { "mcpServers": { "<name>": { "type": "stdio", "command": "...", "args": [...], "env"?: {...} } } }
 * and droid adds `"disabled": false`. GitHub Copilot CLI (`~/.copilot/mcp-config.json`) reads the same shape
 * with a `tools` list (`["*"]`: all of them). Gemini CLI and Qwen Code read `mcpServers` in their settings.json,
 * entries without `type`; Qwen Code defers MCP tools behind its tool_search bridge unless the entry says
 * `alwaysLoadTools: true`, which recall's does, so the model sees memory_search from the first request.
 */
import type { HookCommandParts } from './recall-hooks.js';

export const MCP_SERVER_NAME = 'recall';

export type McpServerEntry = Record<string, unknown>;

/**
 * The keys recall owns in its entry; others (`env`, `disabled`, ...) belong to the user and are kept, except
 * that an install run with RECALL_HOME set writes `env.RECALL_HOME` (and only then: one set by hand stays).
 */
export const OWNED_KEYS = ['type', 'command', 'args'] as const;

/** With `parts.recallHome`, the server gets it as RECALL_HOME in `env`, as the hooks get it in their command. */
export function buildMcpServerEntry(parts: HookCommandParts): McpServerEntry {
  // Gemini CLI's and Qwen Code's mcpServers entries have no `type` (a `command` makes a stdio server).
  const entry: McpServerEntry = parts.agent === 'gemini' || parts.agent === 'qwen' ? { command: parts.nodePath, args: [parts.cliPath, 'mcp'] } : { type: 'stdio', command: parts.nodePath, args: [parts.cliPath, 'mcp'] };
  if (parts.recallHome) entry.env = { RECALL_HOME: parts.recallHome };
  if (parts.agent === 'factory') entry.disabled = false;
  // Copilot CLI offers a server's tools to the model only as far as its `tools` list allows.
  if (parts.agent === 'copilot') entry.tools = ['*'];
  // Written when the entry is added; a user who turns it off keeps it off.
  if (parts.agent === 'qwen') entry.alwaysLoadTools = true;
  return entry;
}

/**
 * Whether an entry runs recall's MCP server: `<node> .../dist/cli/main.cjs mcp` (or main.js: this command, an older
 * checkout, the plugin) or `recall mcp` (a global install).
 */
export function isRecallMcpEntry(entry: unknown): boolean {
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) return false;
  const { command, args } = entry as { command?: unknown; args?: unknown };
  if (typeof command !== 'string' || !Array.isArray(args) || !args.every((a) => typeof a === 'string')) return false;
  const words = [command, ...(args as string[])];
  const at = words.findIndex((word) => /(?:^|[\\/])dist[\\/]cli[\\/]main\.c?js$/.test(word) || /(?:^|[\\/])recall$/.test(word));
  return at !== -1 && words[at + 1] === 'mcp' && words.length === at + 2;
}
