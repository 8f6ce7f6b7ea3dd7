import { existsSync, readdirSync, readFileSync, statSync, writeFileSync, chmodSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderMcpReport } from '../../../src/install/render-mcp-report.js';
import { mcpConfigFile, mcpTargetsFor, planMcpTargets, writeMcpPlans, type McpInstallOptions } from '../../../src/install/run-mcp-install.js';
import { useTempDirs } from '../../support/temp-dir.js';

const tempDir = useTempDirs();
const NOW = new Date('2026-03-04T05:06:07.089Z');
const INSTALL: McpInstallOptions = { action: 'install', nodePath: '/usr/bin/node', cliPath: '/opt/recall/dist/cli/main.js', env: {} };
const CLAUDE_JSON = `${JSON.stringify({ numStartups: 12, projects: { '/w/shop': { mcpServers: {} } }, mcpServers: { playwright: { command: 'npx', args: ['@playwright/mcp'] } } }, null, 2)}\n`;

function run(file: string, options: McpInstallOptions, dryRun = false, agent: 'claude' | 'factory' = 'claude') {
  return writeMcpPlans(planMcpTargets([{ agent, file, scope: 'user' }], options), { dryRun, now: NOW });
}

describe('mcpConfigFile', () => {
  it('uses ~/.claude.json and ~/.factory/mcp.json, or .mcp.json and .factory/mcp.json in the project', () => {
    const where = { home: '/h', cwd: '/w/shop' };
    expect(mcpConfigFile('claude', { ...where, project: false })).toBe('/h/.claude.json');
    expect(mcpConfigFile('claude', { ...where, project: true })).toBe('/w/shop/.mcp.json');
    expect(mcpConfigFile('factory', { ...where, project: false })).toBe('/h/.factory/mcp.json');
    expect(mcpConfigFile('factory', { ...where, project: true })).toBe('/w/shop/.factory/mcp.json');
  });

  it('follows the agents the hooks go to, once each', () => {
    const targets = [{ agent: 'claude' as const, file: '/h/.claude/settings.json' }, { agent: 'factory' as const, file: '/h/.factory/settings.json' }];
    expect(mcpTargetsFor(targets, { project: false, home: '/h', cwd: '/w' })).toEqual([
      { agent: 'claude', file: '/h/.claude.json', scope: 'user' },
      { agent: 'factory', file: '/h/.factory/mcp.json', scope: 'user' },
    ]);
  });
});

describe('planMcpTargets and writeMcpPlans', () => {
  it('adds the server to ~/.claude.json, keeping every other key, with a backup of the original bytes and mode', () => {
    const file = join(tempDir(), '.claude.json');
    writeFileSync(file, CLAUDE_JSON);
    chmodSync(file, 0o600);
    const [outcome] = run(file, INSTALL);
    expect(outcome).toMatchObject({ action: 'added', written: true, created: false });
    const written = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    expect(written).toEqual({ ...JSON.parse(CLAUDE_JSON), mcpServers: { playwright: { command: 'npx', args: ['@playwright/mcp'] }, recall: { type: 'stdio', command: '/usr/bin/node', args: ['/opt/recall/dist/cli/main.js', 'mcp'] } } });
    expect(readFileSync(outcome!.backup!, 'utf8')).toBe(CLAUDE_JSON);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('rewrites nothing on a second install and gives the original bytes back on uninstall', () => {
    const dir = tempDir();
    const file = join(dir, '.claude.json');
    writeFileSync(file, CLAUDE_JSON);
    run(file, INSTALL);
    const installed = readFileSync(file, 'utf8');
    expect(run(file, INSTALL)[0]).toMatchObject({ action: 'unchanged', written: false, backup: null });
    expect(readFileSync(file, 'utf8')).toBe(installed);
    expect(run(file, { ...INSTALL, action: 'uninstall' })[0]).toMatchObject({ action: 'removed', written: true });
    expect(readFileSync(file, 'utf8')).toBe(CLAUDE_JSON);
    expect(readdirSync(dir).filter((name) => name.includes('.recall-backup-'))).toHaveLength(2);
  });

  it('creates a missing droid mcp.json with its folder, and notes a server the user disabled', () => {
    const file = join(tempDir(), '.factory', 'mcp.json');
    expect(run(file, INSTALL, false, 'factory')[0]).toMatchObject({ action: 'added', created: true, backup: null });
    const entry = (JSON.parse(readFileSync(file, 'utf8')) as { mcpServers: { recall: Record<string, unknown> } }).mcpServers.recall;
    expect(entry).toEqual({ type: 'stdio', command: '/usr/bin/node', args: ['/opt/recall/dist/cli/main.js', 'mcp'], disabled: false });
    writeFileSync(file, JSON.stringify({ mcpServers: { recall: { ...entry, disabled: true } } }));
    expect(run(file, INSTALL, false, 'factory')[0]!.notes.join('\n')).toMatch(/disabled in .*mcp\.json; enable it with \/mcp/);
  });

  it('plans every file before writing any, so one bad file changes nothing', () => {
    const dir = tempDir();
    const good = join(dir, 'good.json');
    const bad = join(dir, 'bad.json');
    writeFileSync(good, CLAUDE_JSON);
    writeFileSync(bad, '{"mcpServers": []}');
    expect(() => planMcpTargets([{ agent: 'claude', file: good, scope: 'user' }, { agent: 'factory', file: bad, scope: 'user' }], INSTALL)).toThrow(
      `${bad}: "mcpServers" must be an object, found an array; recall changed nothing`,
    );
    expect(readFileSync(good, 'utf8')).toBe(CLAUDE_JSON);
  });

  it('on a dry run shows the mcpServers diff and writes nothing, not even a missing file', () => {
    const file = join(tempDir(), '.claude.json');
    const outcomes = run(file, INSTALL, true);
    expect(outcomes[0]).toMatchObject({ action: 'added', written: false, dryRun: true });
    expect(existsSync(file)).toBe(false);
    const report = renderMcpReport(outcomes);
    expect(report[0]).toBe(`claude: would add the recall MCP server to ${file}`);
    expect(report.some((line) => /^ {4}\+ .*"mcp"/.test(line))).toBe(true);
  });
});
