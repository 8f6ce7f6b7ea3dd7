import type { Command } from 'commander';

/** After the server closed, anything a library left running gets this long before the process exits anyway. */
const EXIT_GRACE_MS = 1_000;

export function registerMcp(program: Command): void {
  program
    .command('mcp')
    .description('run the MCP server on stdin/stdout (memory_search, memory_store, memory_forget, memory_recent) for Claude Code, Factory and other agents')
    .action(async () => {
      // Loaded here, so other commands never pay for the MCP SDK.
      const { runMcpServer } = await import('../../mcp/run-mcp-server.js');
      await runMcpServer({ version: program.version() ?? '0.0.0', cwd: process.cwd() });
      process.stdin.destroy();
      setTimeout(() => process.exit(), EXIT_GRACE_MS).unref();
    });
}
