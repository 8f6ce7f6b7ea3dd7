/**
 * `RECALL_HOME=/data/recall recall install`: the hooks and the MCP server it registers must use that state dir
 * even when the agent runs them without RECALL_HOME in its environment.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderInstallReport } from '../../../src/install/render-install-report.js';
import { buildHookCommand, recallHookEntries, recallHookHome, recallHookName, type HookCommandParts } from '../../../src/install/recall-hooks.js';
import { buildMcpServerEntry } from '../../../src/install/recall-mcp-server.js';
import { recallHomeToInstall, runInstall, type InstallOptions } from '../../../src/install/run-install.js';
import { planMcpTargets, writeMcpPlans, type McpInstallOptions } from '../../../src/install/run-mcp-install.js';
import { useTempDirs } from '../../support/temp-dir.js';

const tempDir = useTempDirs();
const parts: HookCommandParts = { nodePath: '/usr/local/bin/node', cliPath: '/home/me/recall/dist/cli/main.js', agent: 'claude' };
const NOW = new Date('2026-03-04T05:06:07.089Z');
const ODD_HOME = '/data/My "recall" $HOME `x` \\y';

type Settings = { hooks?: Record<string, { matcher?: string; hooks: { command: string }[] }[]> };
const readJson = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as Settings & { mcpServers?: Record<string, Record<string, unknown>> };
const commands = (file: string, event: string) => (readJson(file).hooks?.[event] ?? []).flatMap((g) => g.hooks.map((h) => h.command));

describe('hook commands with a RECALL_HOME', () => {
  it('sets RECALL_HOME, shell-quoted, before the command', () => {
    expect(buildHookCommand({ ...parts, recallHome: '/data/recall' }, 'session-end')).toBe(
      'RECALL_HOME="/data/recall" "/usr/local/bin/node" "/home/me/recall/dist/cli/main.js" hook session-end',
    );
    expect(buildHookCommand({ ...parts, agent: 'factory', recallHome: '/data/recall' }, 'session-start')).toBe(
      'RECALL_HOME="/data/recall" "/usr/local/bin/node" "/home/me/recall/dist/cli/main.js" hook session-start --agent factory',
    );
  });

  it('writes the command as before when there is no home', () => {
    const plain = '"/usr/local/bin/node" "/home/me/recall/dist/cli/main.js" hook session-end';
    expect(buildHookCommand(parts, 'session-end')).toBe(plain);
    expect(buildHookCommand({ ...parts, recallHome: null }, 'session-end')).toBe(plain);
    expect(recallHookEntries({ ...parts, recallHome: null }, { endless: true }).map((e) => e.command)).toEqual(recallHookEntries(parts, { endless: true }).map((e) => e.command));
  });

  it('gives every hook entry the same home', () => {
    const entries = recallHookEntries({ ...parts, recallHome: '/data/recall' }, { endless: true });
    expect(entries).toHaveLength(4);
    for (const entry of entries) expect(entry.command).toBe(buildHookCommand({ ...parts, recallHome: '/data/recall' }, entry.name));
  });

  it('hands the hook the exact path through a POSIX shell, spaces, quotes, dollars and backticks included', () => {
    const dir = tempDir();
    const script = join(dir, 'print-env.mjs');
    writeFileSync(script, 'process.stdout.write(JSON.stringify({ home: process.env.RECALL_HOME, args: process.argv.slice(2) }));\n');
    const command = buildHookCommand({ nodePath: process.execPath, cliPath: script, agent: 'factory', recallHome: ODD_HOME }, 'session-end');
    const { RECALL_HOME: _drop, ...env } = process.env;
    const printed = JSON.parse(execFileSync('/bin/sh', ['-c', command], { encoding: 'utf8', env })) as { home: string; args: string[] };
    expect(printed).toEqual({ home: ODD_HOME, args: ['hook', 'session-end', '--agent', 'factory'] });
  });

  it('recognises the prefixed commands as recall hooks', () => {
    for (const name of ['session-start', 'session-end', 'post-tool-use'] as const) {
      expect(recallHookName(buildHookCommand({ ...parts, recallHome: '/data/recall' }, name))).toBe(name);
      expect(recallHookName(buildHookCommand({ ...parts, recallHome: ODD_HOME }, name))).toBe(name);
      expect(recallHookName(buildHookCommand({ ...parts, recallHome: '/srv/with space/recall' }, name))).toBe(name);
    }
    expect(recallHookName("RECALL_HOME='/data/x' recall hook session-end")).toBe('session-end');
    expect(recallHookName('RECALL_HOME=/data/x recall hook session-start')).toBe('session-start');
  });

  it('reads the home back from a hook command as a POSIX shell would pass it', () => {
    for (const home of ['/data/recall', ODD_HOME, '/srv/with space/recall']) {
      expect(recallHookHome(buildHookCommand({ ...parts, recallHome: home }, 'session-end'))).toBe(home);
    }
    expect(recallHookHome("RECALL_HOME='/data/x \\y' recall hook session-end")).toBe('/data/x \\y');
    expect(recallHookHome('RECALL_HOME=/data/x recall hook session-start')).toBe('/data/x');
    expect(recallHookHome(buildHookCommand(parts, 'session-end'))).toBeNull();
    expect(recallHookHome('RECALL_HOME=/data/x other-tool run')).toBeNull();
    expect(recallHookHome(undefined)).toBeNull();
  });

  it('does not let a home path that reads like a recall command decide which hook it is', () => {
    const command = 'RECALL_HOME="/data/recall hook session-start" "/usr/bin/node" "/opt/recall/dist/cli/main.js" hook session-end';
    expect(buildHookCommand({ nodePath: '/usr/bin/node', cliPath: '/opt/recall/dist/cli/main.js', agent: 'claude', recallHome: '/data/recall hook session-start' }, 'session-end')).toBe(command);
    expect(recallHookName(command)).toBe('session-end');
    expect(recallHookName("RECALL_HOME='/x/recall hook post-tool-use' recall hook session-start")).toBe('session-start');
  });

  it('still refuses a command that only sets RECALL_HOME', () => {
    expect(recallHookName('RECALL_HOME="/data/recall" echo bye')).toBeNull();
  });
});

describe('recallHomeToInstall', () => {
  it('is null when RECALL_HOME is unset or blank', () => {
    expect(recallHomeToInstall({})).toBeNull();
    expect(recallHomeToInstall({ RECALL_HOME: '   ' })).toBeNull();
  });

  it('makes RECALL_HOME absolute the way the hooks resolve it', () => {
    expect(recallHomeToInstall({ RECALL_HOME: ' /data/recall ' })).toBe('/data/recall');
    expect(recallHomeToInstall({ RECALL_HOME: 'state/recall' })).toBe(resolve('state/recall'));
  });
});

describe('runInstall with RECALL_HOME', () => {
  const base: InstallOptions & { dryRun: boolean; now: Date } = {
    action: 'install',
    endless: true,
    nodePath: '/usr/bin/node',
    cliPath: '/opt/recall/dist/cli/main.js',
    env: {},
    dryRun: false,
    now: NOW,
  };
  const withHome = (home: string | undefined) => ({ ...base, env: home === undefined ? {} : { RECALL_HOME: home } });
  const ours = (home: string | null, name: 'session-start' | 'session-end' | 'post-tool-use') =>
    buildHookCommand({ nodePath: base.nodePath, cliPath: base.cliPath, agent: 'claude', recallHome: home }, name);

  it('installs with A, changes nothing with A again, moves every hook to B in place, back to none, and uninstalls', () => {
    const file = join(tempDir(), 'settings.json');
    writeFileSync(file, JSON.stringify({ hooks: { SessionEnd: [{ hooks: [{ type: 'command', command: 'echo bye' }] }] } }, null, 2));
    const target = [{ agent: 'claude' as const, file }];

    const [first] = runInstall(target, withHome('/data/a'));
    expect(first).toMatchObject({ status: 'installed', recallHome: '/data/a' });
    expect(commands(file, 'SessionEnd')).toEqual(['echo bye', ours('/data/a', 'session-end')]);
    expect(commands(file, 'SessionStart')).toEqual([ours('/data/a', 'session-start')]);
    expect(commands(file, 'PostToolUse')).toEqual([ours('/data/a', 'post-tool-use')]);

    const bytes = readFileSync(file, 'utf8');
    const [again] = runInstall(target, withHome('/data/a'));
    expect(again).toMatchObject({ status: 'already-installed', written: false, backup: null });
    expect(readFileSync(file, 'utf8')).toBe(bytes);

    const [moved] = runInstall(target, withHome('/data/b'));
    expect(moved).toMatchObject({ status: 'updated', recallHome: '/data/b' });
    expect(moved!.hooks.map((h) => `${h.name}:${h.action}`)).toEqual(['session-start:updated', 'session-end:updated', 'post-tool-use:updated']);
    expect(commands(file, 'SessionEnd')).toEqual(['echo bye', ours('/data/b', 'session-end')]);
    expect(commands(file, 'SessionStart')).toEqual([ours('/data/b', 'session-start')]);
    expect(commands(file, 'PostToolUse')).toEqual([ours('/data/b', 'post-tool-use')]);

    const [plain] = runInstall(target, withHome(undefined));
    expect(plain).toMatchObject({ status: 'updated', recallHome: null });
    expect(commands(file, 'SessionEnd')).toEqual(['echo bye', ours(null, 'session-end')]);
    expect(commands(file, 'SessionStart')).toEqual([ours(null, 'session-start')]);

    runInstall(target, withHome('/data/b'));
    const [removed] = runInstall(target, { ...withHome('/data/b'), action: 'uninstall', endless: false });
    expect(removed).toMatchObject({ status: 'removed', recallHome: null });
    expect(readJson(file).hooks).toEqual({ SessionEnd: [{ hooks: [{ type: 'command', command: 'echo bye' }] }] });
  });

  it('says once which state dir the hooks use, and nothing when RECALL_HOME is not set or on uninstall', () => {
    const dir = tempDir();
    const targets = [
      { agent: 'claude' as const, file: join(dir, 'claude.json') },
      { agent: 'factory' as const, file: join(dir, 'factory.json') },
    ];
    const installed = renderInstallReport(runInstall(targets, withHome('/data/a')), ['claude: added the recall MCP server to x']);
    expect(installed.filter((line) => line.includes('RECALL_HOME'))).toEqual(['hooks use RECALL_HOME=/data/a']);
    expect(installed.at(-1)).toBe('claude: added the recall MCP server to x');
    expect(renderInstallReport(runInstall(targets, withHome(undefined))).join('\n')).not.toContain('RECALL_HOME');
    expect(renderInstallReport(runInstall(targets, { ...withHome('/data/a'), action: 'uninstall', endless: false })).join('\n')).not.toContain('RECALL_HOME');
  });
});

describe('the MCP server entry with RECALL_HOME', () => {
  const INSTALL: McpInstallOptions = { action: 'install', nodePath: '/usr/bin/node', cliPath: '/opt/recall/dist/cli/main.js', env: {} };
  const install = (file: string, agent: 'claude' | 'factory', env: NodeJS.ProcessEnv) =>
    writeMcpPlans(planMcpTargets([{ agent, file, scope: 'user' }], { ...INSTALL, env }), { dryRun: false, now: NOW });
  const server = (file: string) => readJson(file).mcpServers?.recall;

  it('carries RECALL_HOME in env only when it is set', () => {
    expect(buildMcpServerEntry({ ...parts, recallHome: '/data/recall' })).toEqual({ type: 'stdio', command: parts.nodePath, args: [parts.cliPath, 'mcp'], env: { RECALL_HOME: '/data/recall' } });
    expect(buildMcpServerEntry({ ...parts, agent: 'factory', recallHome: null })).toEqual({ type: 'stdio', command: parts.nodePath, args: [parts.cliPath, 'mcp'], disabled: false });
  });

  it("writes env only when RECALL_HOME is set, follows a new home, and keeps the user's own env keys", () => {
    const dir = tempDir();
    const plain = join(dir, 'plain.json');
    install(plain, 'factory', {});
    expect(server(plain)).toEqual({ type: 'stdio', command: INSTALL.nodePath, args: [INSTALL.cliPath, 'mcp'], disabled: false });

    const file = join(dir, 'claude.json');
    const [added] = install(file, 'claude', { RECALL_HOME: '/data/a' });
    expect(added!.action).toBe('added');
    expect(server(file)).toEqual({ type: 'stdio', command: INSTALL.nodePath, args: [INSTALL.cliPath, 'mcp'], env: { RECALL_HOME: '/data/a' } });
    expect(install(file, 'claude', { RECALL_HOME: '/data/a' })[0]!.action).toBe('unchanged');

    const config = readJson(file);
    config.mcpServers!.recall!.env = { DEBUG: '1', RECALL_HOME: '/data/a' };
    writeFileSync(file, JSON.stringify(config, null, 2));
    expect(install(file, 'claude', { RECALL_HOME: '/data/b' })[0]!.action).toBe('updated');
    expect(server(file)!.env).toEqual({ DEBUG: '1', RECALL_HOME: '/data/b' });
  });

  it('leaves an env RECALL_HOME alone when install runs without one (it may have been set by hand)', () => {
    const file = join(tempDir(), 'claude.json');
    install(file, 'claude', { RECALL_HOME: '/data/a' });
    const [again] = install(file, 'claude', {});
    expect(again!.action).toBe('unchanged');
    expect(server(file)!.env).toEqual({ RECALL_HOME: '/data/a' });
  });
});
