import type { Command } from 'commander';

/** Registered for `--help`; a plain `recall mcp` is started by main.ts without loading this program. */
export function registerMcp(program: Command): void {
  program
    .command('mcp')
    .description('run the MCP server on stdin/stdout (memory_search, memory_store, memory_forget, memory_recent) for Claude Code, Factory and other agents')
    .action(async () => {
      // Loaded here, so other commands never pay for the MCP SDK.
      const { serveMcpCommand } = await import('../../mcp/serve-mcp-command.js');
      await serveMcpCommand();
    });
}
