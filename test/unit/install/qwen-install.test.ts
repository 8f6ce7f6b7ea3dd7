import { describe, expect, it } from 'vitest';
import { buildMcpServerEntry } from '../../../src/install/recall-mcp-server.js';
import { mcpConfigFile } from '../../../src/install/run-mcp-install.js';

const base = { home: '/home/me', cwd: '/work/app', project: false };

describe('Qwen Code as an install target', () => {
  it('registers the MCP server as mcpServers.recall in the settings.json its hooks are in, without a type (as Gemini CLI), its tools always loaded', () => {
    expect(mcpConfigFile('qwen', base)).toBe('/home/me/.qwen/settings.json');
    expect(mcpConfigFile('qwen', { ...base, project: true })).toBe('/work/app/.qwen/settings.json');
    expect(buildMcpServerEntry({ nodePath: '/usr/bin/node', cliPath: '/r/dist/cli/main.js', agent: 'qwen', recallHome: '/state' })).toEqual({
      command: '/usr/bin/node',
      args: ['/r/dist/cli/main.js', 'mcp'],
      env: { RECALL_HOME: '/state' },
      alwaysLoadTools: true,
    });
  });
});
