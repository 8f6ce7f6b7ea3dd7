import { describe, expect, it } from 'vitest';
import { detectAgents, resolveInstallTargets } from '../../../src/install/install-targets.js';
import { recallHookEntries, replacesToolOutput } from '../../../src/install/recall-hooks.js';
import { buildMcpServerEntry } from '../../../src/install/recall-mcp-server.js';
import { mcpConfigFile } from '../../../src/install/run-mcp-install.js';

const base = { home: '/home/me', cwd: '/work/app', project: false };
const none = () => false;

describe('GitHub Copilot CLI as an install target', () => {
  it('keeps its hooks in hooks/recall.json of COPILOT_HOME (default ~/.copilot), or of the project\'s .github', () => {
    expect(resolveInstallTargets({ ...base, target: 'copilot', exists: none })).toEqual([{ agent: 'copilot', file: '/home/me/.copilot/hooks/recall.json' }]);
    expect(resolveInstallTargets({ ...base, copilotHome: '/data/cop', target: 'copilot', exists: none })).toEqual([{ agent: 'copilot', file: '/data/cop/hooks/recall.json' }]);
    expect(resolveInstallTargets({ ...base, copilotHome: '/data/cop', project: true, target: 'copilot', exists: none })).toEqual([
      { agent: 'copilot', file: '/work/app/.github/hooks/recall.json' },
    ]);
  });

  it('is picked without --target when its home folder exists', () => {
    expect(detectAgents({ home: '/home/me' }, (p) => p === '/home/me/.copilot')).toEqual(['copilot']);
    expect(detectAgents({ home: '/home/me', copilotHome: '/data/cop' }, (p) => p === '/data/cop')).toEqual(['copilot']);
  });

  it('gets SessionStart, SessionEnd and Stop, and the Endless Mode hook when asked for (Copilot takes a modifiedResult)', () => {
    const parts = { nodePath: '/usr/bin/node', cliPath: '/r/dist/cli/main.js', agent: 'copilot' as const };
    const ensured = (endless: boolean) => recallHookEntries(parts, { endless }).filter((e) => e.mode === 'ensure').map((e) => e.event);
    expect(ensured(false)).toEqual(['SessionStart', 'SessionEnd', 'Stop']);
    expect(ensured(true)).toEqual(['SessionStart', 'SessionEnd', 'PostToolUse', 'Stop']);
    expect(replacesToolOutput('copilot')).toBe(true);
    expect(recallHookEntries(parts, { endless: false })[0]!.command).toBe('"/usr/bin/node" "/r/dist/cli/main.js" hook session-start --agent copilot');
  });

  it('registers the MCP server in mcp-config.json (or the project .mcp.json) with every tool allowed', () => {
    expect(mcpConfigFile('copilot', base)).toBe('/home/me/.copilot/mcp-config.json');
    expect(mcpConfigFile('copilot', { ...base, copilotHome: '/data/cop' })).toBe('/data/cop/mcp-config.json');
    expect(mcpConfigFile('copilot', { ...base, project: true })).toBe('/work/app/.mcp.json');
    expect(buildMcpServerEntry({ nodePath: '/usr/bin/node', cliPath: '/r/dist/cli/main.js', agent: 'copilot' })).toEqual({
      type: 'stdio',
      command: '/usr/bin/node',
      args: ['/r/dist/cli/main.js', 'mcp'],
      tools: ['*'],
    });
  });
});
