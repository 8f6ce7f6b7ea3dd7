import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { baseEnv, runCli } from '../support/cli.js';
import { useTempDirs } from '../support/temp-dir.js';

const tempDir = useTempDirs();

function setup() {
  const home = tempDir('recall-install-endless-');
  const recallHome = join(home, '.recall');
  return { env: baseEnv({ HOME: home, RECALL_HOME: recallHome }), configFile: join(recallHome, 'config.json'), settings: join(home, '.claude', 'settings.json') };
}

const config = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as { endless?: { enabled?: boolean } };

describe('recall install --endless', () => {
  it('adds the PostToolUse hook and switches Endless Mode on; uninstall --endless switches it off again', async () => {
    const { env, configFile, settings } = setup();
    const installed = await runCli(['install', '--target', 'claude', '--endless', '--no-mcp'], { env });
    expect(installed.exitCode).toBe(0);
    expect(installed.stdout).toContain('Endless Mode switched on');
    expect(JSON.stringify(JSON.parse(readFileSync(settings, 'utf8')).hooks.PostToolUse)).toContain('hook post-tool-use');
    expect(config(configFile).endless?.enabled).toBe(true);
    const status = await runCli(['config', 'get', 'endless.enabled'], { env });
    expect(status.stdout.trim()).toBe('true');

    const removed = await runCli(['uninstall', '--target', 'claude', '--endless', '--no-mcp'], { env });
    expect(removed.exitCode).toBe(0);
    expect(config(configFile).endless?.enabled).toBe(false);
  });

  it('writes no config on a dry run', async () => {
    const { env, configFile } = setup();
    const result = await runCli(['install', '--target', 'claude', '--endless', '--no-mcp', '--dry-run'], { env });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain('Endless Mode would be switched on');
    expect(existsSync(configFile)).toBe(false);
  });

  it('leaves Endless Mode alone on a plain install', async () => {
    const { env, configFile } = setup();
    await runCli(['install', '--target', 'claude', '--no-mcp'], { env });
    expect(existsSync(configFile)).toBe(false);
  });

  it('adds no PostToolUse hook for droid, says why, and leaves the Endless switch alone when droid is the only target', async () => {
    const { env, configFile } = setup();
    const home = env.HOME!;
    const result = await runCli(['install', '--target', 'factory', '--endless', '--no-mcp'], { env });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout).toContain("Endless Mode cannot compress droid's tool outputs");
    const hooks = JSON.parse(readFileSync(join(home, '.factory', 'settings.json'), 'utf8')).hooks as Record<string, unknown>;
    expect(Object.keys(hooks).sort()).toEqual(['SessionEnd', 'SessionStart']);
    expect(existsSync(configFile)).toBe(false);
  });

  it('adds the PostToolUse hook for Claude Code only when both agents are targets', async () => {
    const { env, configFile, settings } = setup();
    const result = await runCli(['install', '--target', 'all', '--endless', '--no-mcp'], { env });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(JSON.parse(readFileSync(settings, 'utf8')).hooks.PostToolUse).toBeDefined();
    expect(JSON.parse(readFileSync(join(env.HOME!, '.factory', 'settings.json'), 'utf8')).hooks.PostToolUse).toBeUndefined();
    expect(config(configFile).endless?.enabled).toBe(true);
  });
});
