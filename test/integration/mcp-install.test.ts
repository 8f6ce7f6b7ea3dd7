/**
 * `recall install` / `uninstall` registering the MCP server, through the built CLI on a temporary HOME:
 * the agents' MCP config files gain recall's entry and nothing else changes; uninstall gives the bytes back.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { describe, expect, it } from 'vitest';
import { baseEnv, BIN, runCli } from '../support/cli.js';
import { useTempDirs } from '../support/temp-dir.js';

const tempDir = useTempDirs();

interface McpEntry {
  type?: string;
  command: string;
  args: string[];
  disabled?: boolean;
  env?: Record<string, string>;
}
type McpConfig = { mcpServers?: Record<string, McpEntry> } & Record<string, unknown>;

const CLAUDE_JSON = `${JSON.stringify(
  { numStartups: 41, theme: 'dark', projects: { '/w/shop': { allowedTools: [], mcpServers: {} } }, mcpServers: { playwright: { type: 'stdio', command: 'npx', args: ['@playwright/mcp@latest'], env: {} } } },
  null,
  2,
)}\n`;
const RECALL_ENTRY: McpEntry = { type: 'stdio', command: process.execPath, args: [BIN, 'mcp'] };

function setup(options: { claudeJson?: string; dirs?: ('.claude' | '.factory')[] } = {}) {
  const home = tempDir('recall-mcp-install-');
  for (const dir of options.dirs ?? []) mkdirSync(join(home, dir), { recursive: true });
  const claudeJson = join(home, '.claude.json');
  if (options.claudeJson !== undefined) writeFileSync(claudeJson, options.claudeJson);
  // No RECALL_HOME: the state dir is the default ~/.recall of this HOME, and the entry gets no env.
  const env = baseEnv({ HOME: home });
  return { home, env, claudeJson, factoryMcp: join(home, '.factory', 'mcp.json'), claudeSettings: join(home, '.claude', 'settings.json') };
}

const readConfig = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as McpConfig;

describe('recall install and the MCP server', () => {
  it("adds recall's server to ~/.claude.json next to the user's own and keeps every other key", async () => {
    const { env, claudeJson } = setup({ claudeJson: CLAUDE_JSON, dirs: ['.claude'] });
    const result = await runCli(['install', '--target', 'claude'], { env });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain(`claude: added the recall MCP server to ${claudeJson}\n`);
    const config = readConfig(claudeJson);
    expect(config.mcpServers).toEqual({ ...JSON.parse(CLAUDE_JSON).mcpServers, recall: RECALL_ENTRY });
    const { mcpServers: _ours, ...rest } = config;
    const { mcpServers: _theirs, ...before } = JSON.parse(CLAUDE_JSON) as McpConfig;
    expect(rest).toEqual(before);
  });

  it('changes nothing on a second install and gives ~/.claude.json back byte for byte on uninstall', async () => {
    const { env, claudeJson } = setup({ claudeJson: CLAUDE_JSON, dirs: ['.claude'] });
    await runCli(['install', '--target', 'claude'], { env });
    const installed = readFileSync(claudeJson, 'utf8');
    const again = await runCli(['install', '--target', 'claude'], { env });
    expect(again.stdout).toContain(`claude: the recall MCP server is already in ${claudeJson}; nothing to change`);
    expect(readFileSync(claudeJson, 'utf8')).toBe(installed);

    const removed = await runCli(['uninstall', '--target', 'claude'], { env });
    expect(removed.exitCode).toBe(0);
    expect(removed.stdout).toContain(`claude: removed the recall MCP server from ${claudeJson}`);
    expect(readFileSync(claudeJson, 'utf8')).toBe(CLAUDE_JSON);
  });

  it('registers the server for droid in ~/.factory/mcp.json, enabled', async () => {
    const { env, factoryMcp, claudeJson } = setup({ dirs: ['.factory'] });
    const result = await runCli(['install', '--target', 'factory'], { env });
    expect(result.exitCode).toBe(0);
    expect(readConfig(factoryMcp).mcpServers).toEqual({ recall: { ...RECALL_ENTRY, disabled: false } });
    expect(existsSync(claudeJson)).toBe(false);
  });

  it('writes the project .mcp.json (and .factory/mcp.json) instead of the home files with --project', async () => {
    const { env, claudeJson, factoryMcp } = setup();
    const project = tempDir('recall-mcp-project-');
    const result = await runCli(['install', '--project', '--target', 'all'], { env, cwd: project });
    expect(result.exitCode).toBe(0);
    // Copilot CLI reads the project's .mcp.json too and offers only the tools its `tools` list names; Claude Code
    // accepts the extra key (checked with `claude mcp get recall` of Claude Code 2.1.197).
    expect(readConfig(join(project, '.mcp.json')).mcpServers).toEqual({ recall: { ...RECALL_ENTRY, tools: ['*'] } });
    expect(readConfig(join(project, '.factory', 'mcp.json')).mcpServers?.recall).toEqual({ ...RECALL_ENTRY, disabled: false });
    expect(existsSync(claudeJson)).toBe(false);
    expect(existsSync(factoryMcp)).toBe(false);
  });

  it('leaves the MCP files alone with --no-mcp, and uninstall --endless keeps the server', async () => {
    const plain = setup({ dirs: ['.claude'] });
    await runCli(['install', '--target', 'claude', '--no-mcp'], { env: plain.env });
    expect(existsSync(plain.claudeSettings)).toBe(true);
    expect(existsSync(plain.claudeJson)).toBe(false);

    const endless = setup({ claudeJson: CLAUDE_JSON, dirs: ['.claude'] });
    await runCli(['install', '--target', 'claude', '--endless'], { env: endless.env });
    await runCli(['uninstall', '--target', 'claude', '--endless'], { env: endless.env });
    expect(readConfig(endless.claudeJson).mcpServers?.recall).toEqual(RECALL_ENTRY);
  });

  it('gives the server the RECALL_HOME install ran with in its env', async () => {
    const { env, home, claudeJson } = setup({ claudeJson: CLAUDE_JSON, dirs: ['.claude'] });
    const stateDir = join(home, 'state');
    await runCli(['install', '--target', 'claude'], { env: { ...env, RECALL_HOME: stateDir } });
    expect(readConfig(claudeJson).mcpServers?.recall).toEqual({ ...RECALL_ENTRY, env: { RECALL_HOME: stateDir } });
  });

  it('refuses a ~/.claude.json that is not JSON before writing anything, hooks included', async () => {
    const { env, claudeJson, claudeSettings } = setup({ claudeJson: '{ "theme": "dark", }', dirs: ['.claude'] });
    const result = await runCli(['install', '--target', 'claude'], { env });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toMatch(/^recall: .*\.claude\.json is not valid JSON .*recall changed nothing\n$/);
    expect(readFileSync(claudeJson, 'utf8')).toBe('{ "theme": "dark", }');
    expect(existsSync(claudeSettings)).toBe(false);
  });

  it('reports the MCP files in --json output apart from the hook targets, and shows a dry run before its last line', async () => {
    const { env, claudeJson } = setup({ claudeJson: CLAUDE_JSON, dirs: ['.claude'] });
    const json = await runCli(['install', '--target', 'claude', '--json', '--dry-run'], { env });
    const report = JSON.parse(json.stdout) as { targets: unknown[]; mcp: Array<{ agent: string; file: string; action: string; written: boolean }> };
    expect(report.targets).toHaveLength(1);
    expect(report.mcp).toEqual([expect.objectContaining({ agent: 'claude', file: claudeJson, action: 'added', written: false })]);

    const text = await runCli(['install', '--target', 'claude', '--dry-run'], { env });
    expect(text.stdout).toContain(`claude: would add the recall MCP server to ${claudeJson}`);
    expect(text.stdout).toMatch(/dry run: nothing written\n$/);
    expect(readFileSync(claudeJson, 'utf8')).toBe(CLAUDE_JSON);
  });

  it('registers a command that starts a working server', async () => {
    const { env, claudeJson } = setup({ dirs: ['.claude'] });
    await runCli(['install', '--target', 'claude'], { env });
    const entry = readConfig(claudeJson).mcpServers!.recall!;
    const transport = new StdioClientTransport({ command: entry.command, args: entry.args, env: env as Record<string, string>, cwd: tempDir('recall-mcp-cwd-'), stderr: 'pipe' });
    const client = new Client({ name: 'install-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      expect((await client.listTools()).tools.map((t) => t.name)).toContain('memory_search');
    } finally {
      await client.close();
    }
  });
});
