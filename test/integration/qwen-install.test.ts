/**
 * `recall install` / `uninstall --target qwen` through the built CLI on a temporary HOME: recall's hooks and MCP
 * server go into ~/.qwen/settings.json beside the user's own hooks, servers and keys; a second install changes
 * nothing; uninstall gives the user's settings back; a file that is not JSON is refused before anything is written.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { baseEnv, runCli } from '../support/cli.js';
import { useTempDirs } from '../support/temp-dir.js';

const tempDir = useTempDirs();

const USER_HOOK = { matcher: '*', hooks: [{ type: 'command', command: '/home/me/bin/audit.sh', timeout: 10 }] };
const USER_SETTINGS = {
  $version: 4,
  security: { auth: { selectedType: 'openai' } },
  hooks: { PostToolUse: [USER_HOOK] },
  mcpServers: { docs: { command: 'npx', args: ['docs-mcp'] } },
};
const USER_TEXT = `${JSON.stringify(USER_SETTINGS, null, 2)}\n`;

type Settings = { hooks?: Record<string, Array<{ matcher?: string; hooks: Array<{ command: string; timeout?: number }> }>>; mcpServers?: Record<string, Record<string, unknown>> } & Record<string, unknown>;

function setup(text: string = USER_TEXT) {
  const home = tempDir('recall-qwen-install-');
  mkdirSync(join(home, '.qwen'), { recursive: true });
  const file = join(home, '.qwen', 'settings.json');
  writeFileSync(file, text);
  return { home, file, env: baseEnv({ HOME: home }) };
}

const read = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as Settings;

describe('recall install --target qwen', () => {
  it("adds SessionStart, SessionEnd, Stop and mcpServers.recall beside the user's hooks and servers, keeping every other key", async () => {
    const { env, file } = setup();
    const result = await runCli(['install', '--target', 'qwen'], { env });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout).toContain('a `qwen -p` session is captured at a later SessionStart');
    const settings = read(file);
    expect(settings.$version).toBe(4);
    expect(settings.security).toEqual(USER_SETTINGS.security);
    expect(Object.keys(settings.hooks!).sort()).toEqual(['PostToolUse', 'SessionEnd', 'SessionStart', 'Stop']);
    expect(settings.hooks!.PostToolUse).toEqual([USER_HOOK]);
    expect(settings.hooks!.SessionEnd![0]!.hooks[0]).toMatchObject({ command: expect.stringMatching(/hook session-end --agent qwen$/), timeout: 10 });
    expect(settings.hooks!.Stop![0]!.hooks[0]!.command).toMatch(/hook stop --agent qwen$/);
    expect(settings.mcpServers!.docs).toEqual(USER_SETTINGS.mcpServers.docs);
    expect(settings.mcpServers!.recall).toMatchObject({ command: process.execPath, args: [expect.stringMatching(/main\.cjs$/), 'mcp'], alwaysLoadTools: true });
    expect(readdirSync(join(file, '..')).some((name) => name.startsWith('settings.json.recall-backup-') && readFileSync(join(file, '..', name), 'utf8') === USER_TEXT)).toBe(true);
  });

  it('adds the PostToolUse hook with --endless, changes nothing on a second install, and gives the settings back on uninstall', async () => {
    const { env, file } = setup();
    expect((await runCli(['install', '--target', 'qwen', '--endless'], { env })).exitCode).toBe(0);
    const installed = readFileSync(file, 'utf8');
    expect(read(file).hooks!.PostToolUse).toHaveLength(2);
    expect((await runCli(['install', '--target', 'qwen', '--endless'], { env })).exitCode).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(installed);
    const uninstall = await runCli(['uninstall', '--target', 'qwen', '--endless'], { env });
    expect(uninstall.exitCode, uninstall.stderr).toBe(0);
    expect(read(file).hooks!.PostToolUse).toEqual([USER_HOOK]);
    expect((await runCli(['uninstall', '--target', 'qwen'], { env })).exitCode).toBe(0);
    expect(read(file)).toEqual(USER_SETTINGS);
  });

  it('writes nothing with --dry-run', async () => {
    const { env, file } = setup();
    const result = await runCli(['install', '--target', 'qwen', '--dry-run'], { env });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/dry run: nothing written\n$/);
    expect(readFileSync(file, 'utf8')).toBe(USER_TEXT);
  });

  it('refuses a settings.json that is not JSON and leaves it as it was', async () => {
    const { env, file } = setup('{ "ui": { "theme": "Default" }, }');
    const result = await runCli(['install', '--target', 'qwen'], { env });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toMatch(/settings\.json/);
    expect(readFileSync(file, 'utf8')).toBe('{ "ui": { "theme": "Default" }, }');
  });

  it("shows in recall doctor as the Qwen Code hooks row", async () => {
    const { env } = setup();
    expect((await runCli(['install', '--target', 'qwen'], { env })).exitCode).toBe(0);
    const doctor = await runCli(['doctor', '--json'], { env });
    const checks = (JSON.parse(doctor.stdout) as { checks: Array<{ id: string; status: string; detail: string }> }).checks;
    expect(checks.find((c) => c.id === 'hooks-qwen')).toMatchObject({ status: 'ok', detail: expect.stringContaining('session-end, session-start, stop in') });
    expect(checks.find((c) => c.id === 'hooks-qwen')!.detail).toContain('only when an interactive session ends');
    expect(existsSync(join(env.HOME!, '.claude', 'settings.json'))).toBe(false);
  });
});
