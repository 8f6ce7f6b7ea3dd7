/** Human-readable lines for the MCP server part of `recall install` / `uninstall`. Pure. */
import type { McpOutcome } from './run-mcp-install.js';

export function renderMcpReport(outcomes: readonly McpOutcome[]): string[] {
  return outcomes.flatMap((o) => {
    const lines = [`${o.agent}: ${headline(o)}`];
    if (o.dryRun && o.diff.length > 0) lines.push(`  mcpServers in ${o.file}:`, ...o.diff.map((line) => `    ${line}`));
    if (o.backup) lines.push(`  backup: ${o.backup}`);
    for (const note of o.notes) lines.push(`  note: ${note}`);
    return lines;
  });
}

function headline(o: McpOutcome): string {
  const would = (verb: string) => (o.dryRun ? `would ${verb}` : `${verb === 'add' ? 'added' : verb === 'update' ? 'updated' : 'removed'}`);
  switch (o.action) {
    case 'added':
      return `${would('add')} the recall MCP server to ${o.file}${o.created ? ' (new file)' : ''}`;
    case 'updated':
      return `${would('update')} the recall MCP server in ${o.file}`;
    case 'removed':
      return `${would('remove')} the recall MCP server from ${o.file}`;
    case 'unchanged':
      return `the recall MCP server is already in ${o.file}; nothing to change`;
    case 'absent':
      return `the recall MCP server is not in ${o.file}; nothing to remove`;
    case 'foreign':
      return `left ${o.file} alone: its "recall" MCP server is not recall's`;
    case 'unreachable':
      return `left ${o.file} alone: recall cannot edit its "recall" MCP server entry`;
  }
}
