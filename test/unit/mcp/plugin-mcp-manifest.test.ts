/**
 * The plugin declares the MCP server inline in .claude-plugin/plugin.json (`mcpServers`, paths under
 * ${CLAUDE_PLUGIN_ROOT}); not in a root .mcp.json, which would double as this repository's own
 * project-scope MCP config for anyone working on recall with Claude Code.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { MCP_SERVER_NAME, isRecallMcpEntry } from '../../../src/install/recall-mcp-server.js';

const root = (path: string) => fileURLToPath(new URL(`../../../${path}`, import.meta.url));

describe("the plugin's MCP server", () => {
  const manifest = JSON.parse(readFileSync(root('.claude-plugin/plugin.json'), 'utf8')) as { mcpServers?: Record<string, { command: string; args: string[] }> };

  it('runs the built CLI under ${CLAUDE_PLUGIN_ROOT} with `mcp`, as the entry recall install writes would', () => {
    const entry = manifest.mcpServers?.[MCP_SERVER_NAME];
    expect(entry).toEqual({ command: 'node', args: ['${CLAUDE_PLUGIN_ROOT}/dist/cli/main.cjs', 'mcp'] });
    expect(isRecallMcpEntry(entry)).toBe(true);
  });

  it('is declared in the manifest only, with no root .mcp.json', () => {
    expect(existsSync(root('.mcp.json'))).toBe(false);
  });
});
