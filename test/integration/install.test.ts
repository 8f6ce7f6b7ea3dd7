/**
 * `recall install` / `uninstall` through the built CLI on a temporary HOME.
 *
 * Guarantee under test: recall's entries are added and removed without touching anything else;
 * a file formatted the way JSON.stringify(value, null, indent) formats it comes back byte for byte
 * after install + uninstall; a second install rewrites nothing.
 */
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync, existsSync, chmodSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { baseEnv, BIN, runCli } from '../support/cli.js';
import { useTempDirs } from '../support/temp-dir.js';

const tempDir = useTempDirs();

interface HookGroup {
  matcher?: string;
  hooks: { type: string; command: string; timeout?: number }[];
}
type Settings = { hooks?: Record<string, HookGroup[]> } & Record<string, unknown>;

const USER_SETTINGS = {
  model: 'opus',
  permissions: { allow: ['Bash(npm test)'], deny: [] },
  hooks: {
    SessionEnd: [{ hooks: [{ type: 'command', command: 'echo "bye" >> ~/sessions.log' }] }],
    PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: '/usr/local/bin/guard', timeout: 3 }] }],
  },
  statusLine: { type: 'command', command: 'status.sh' },
};
const USER_TEXT = `${JSON.stringify(USER_SETTINGS, null, 2)}\n`;

function setup(options: { claude?: string; factory?: string; dirs?: ('.claude' | '.factory')[] } = {}) {
  const home = tempDir('recall-install-');
  for (const dir of options.dirs ?? []) mkdirSync(join(home, dir), { recursive: true });
  const claudeFile = join(home, '.claude', 'settings.json');
  const factoryFile = join(home, '.factory', 'settings.json');
  if (options.claude !== undefined) {
    mkdirSync(join(home, '.claude'), { recursive: true });
    writeFileSync(claudeFile, options.claude);
  }
  if (options.factory !== undefined) {
    mkdirSync(join(home, '.factory'), { recursive: true });
    writeFileSync(factoryFile, options.factory);
  }
  // No RECALL_HOME: the state dir is the default ~/.recall of this HOME, and the hooks are written without one.
  const env = baseEnv({ HOME: home });
  return { home, env, claudeFile, factoryFile };
}

const readSettings = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as Settings;
const backupsBeside = (file: string) => readdirSync(join(file, '..')).filter((name) => name.startsWith('settings.json.recall-backup-'));
const commands = (settings: Settings, event: string) => (settings.hooks?.[event] ?? []).flatMap((g) => g.hooks.map((h) => h.command));
const quoted = (path: string) => `"${path}"`;

describe('recall install', () => {
  it("adds recall's SessionEnd and SessionStart hooks and keeps the user's own hooks and keys untouched", async () => {
    const { env, claudeFile } = setup({ claude: USER_TEXT });
    const result = await runCli(['install', '--target', 'claude'], { env });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain(`claude: installed SessionStart, SessionEnd hooks in ${claudeFile}`);

    const settings = readSettings(claudeFile);
    expect(commands(settings, 'SessionEnd')).toEqual([USER_SETTINGS.hooks.SessionEnd[0]!.hooks[0]!.command, `${quoted(process.execPath)} ${quoted(BIN)} hook session-end`]);
    expect(settings.hooks?.SessionEnd?.[1]?.hooks[0]?.timeout).toBe(10);
    expect(commands(settings, 'SessionStart')).toEqual([`${quoted(process.execPath)} ${quoted(BIN)} hook session-start`]);
    expect(settings.hooks?.PreToolUse).toEqual(USER_SETTINGS.hooks.PreToolUse);
    const { hooks: _ours, ...rest } = settings;
    const { hooks: _theirs, ...userRest } = USER_SETTINGS;
    expect(rest).toEqual(userRest);
    expect(backupsBeside(claudeFile)).toHaveLength(1);
    expect(readFileSync(join(claudeFile, '..', backupsBeside(claudeFile)[0]!), 'utf8')).toBe(USER_TEXT);
  });

  it('changes nothing on a second run: the file stays byte-identical and no new backup appears', async () => {
    const { env, claudeFile } = setup({ claude: USER_TEXT });
    await runCli(['install', '--target', 'claude'], { env });
    const afterFirst = readFileSync(claudeFile, 'utf8');
    const mtime = statSync(claudeFile).mtimeMs;

    const again = await runCli(['install', '--target', 'claude'], { env });
    expect(again.exitCode).toBe(0);
    expect(again.stdout).toContain('already installed');
    expect(readFileSync(claudeFile, 'utf8')).toBe(afterFirst);
    expect(statSync(claudeFile).mtimeMs).toBe(mtime);
    expect(backupsBeside(claudeFile)).toHaveLength(1);
  });

  it('keeps the mode of the settings file it rewrites', async () => {
    const { env, claudeFile } = setup({ claude: USER_TEXT });
    chmodSync(claudeFile, 0o644);
    await runCli(['install', '--target', 'claude'], { env });
    expect(statSync(claudeFile).mode & 0o777).toBe(0o644);
  });

  it('creates the settings file and its folder when they are missing', async () => {
    const { env, claudeFile } = setup();
    const result = await runCli(['install', '--target', 'claude'], { env });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain('(new file)');
    expect(commands(readSettings(claudeFile), 'SessionEnd')).toHaveLength(1);
    expect(backupsBeside(claudeFile)).toEqual([]);
  });

  it('refuses a settings file that is not JSON, exits 1 and leaves the file as it was', async () => {
    const { env, claudeFile } = setup({ claude: '{ "model": "opus", // comment\n}' });
    const result = await runCli(['install', '--target', 'claude'], { env });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toMatch(new RegExp(`^recall: ${claudeFile.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is not valid JSON .*recall changed nothing\\n$`));
    expect(result.stdout).toBe('');
    expect(readFileSync(claudeFile, 'utf8')).toBe('{ "model": "opus", // comment\n}');
    expect(backupsBeside(claudeFile)).toEqual([]);
  });

  it('refuses a settings.json that is a directory and exits 1', async () => {
    const { env, claudeFile } = setup();
    mkdirSync(claudeFile, { recursive: true });
    const result = await runCli(['install', '--target', 'claude'], { env });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toBe(`recall: ${claudeFile} is a directory, not a settings file; recall changed nothing\n`);
  });

  it('refuses settings whose hooks is not an object and writes nothing', async () => {
    const text = '{\n  "hooks": ["SessionEnd"]\n}\n';
    const { env, claudeFile } = setup({ claude: text });
    const result = await runCli(['install', '--target', 'claude'], { env });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain(`${claudeFile}: "hooks" must be an object, found an array`);
    expect(readFileSync(claudeFile, 'utf8')).toBe(text);
  });

  it('prints the change with --dry-run and writes nothing, not even a missing file', async () => {
    const { env, claudeFile, factoryFile } = setup({ claude: USER_TEXT });
    const result = await runCli(['install', '--target', 'all', '--dry-run'], { env });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain(`claude: would install SessionStart, SessionEnd hooks in ${claudeFile}`);
    expect(result.stdout).toMatch(/^ {4}\+ .*hook session-end/m);
    expect(result.stdout).toMatch(/dry run: nothing written\n$/);
    expect(readFileSync(claudeFile, 'utf8')).toBe(USER_TEXT);
    expect(backupsBeside(claudeFile)).toEqual([]);
    expect(existsSync(factoryFile)).toBe(false);
  });

  it('writes the project settings under the working directory with --project', async () => {
    const { env, claudeFile } = setup({ dirs: ['.claude'] });
    const project = tempDir('recall-project-');
    const result = await runCli(['install', '--project'], { env, cwd: project });
    expect(result.exitCode).toBe(0);
    expect(commands(readSettings(join(project, '.claude', 'settings.json')), 'SessionEnd')).toHaveLength(1);
    expect(existsSync(claudeFile)).toBe(false);
  });

  it('installs for Factory droid with --agent factory after the event name', async () => {
    const { env, factoryFile, claudeFile } = setup({ factory: '{\n  "model": "sonnet"\n}\n' });
    const result = await runCli(['install', '--target', 'factory'], { env });
    expect(result.exitCode).toBe(0);
    const settings = readSettings(factoryFile);
    expect(settings.model).toBe('sonnet');
    expect(commands(settings, 'SessionEnd')).toEqual([`${quoted(process.execPath)} ${quoted(BIN)} hook session-end --agent factory`]);
    expect(existsSync(claudeFile)).toBe(false);
  });

  it('defaults to the agents whose folder exists, and to Claude Code when none does', async () => {
    const onlyFactory = setup({ dirs: ['.factory'] });
    await runCli(['install'], { env: onlyFactory.env });
    expect(existsSync(onlyFactory.factoryFile)).toBe(true);
    expect(existsSync(onlyFactory.claudeFile)).toBe(false);

    const neither = setup();
    await runCli(['install'], { env: neither.env });
    expect(existsSync(neither.claudeFile)).toBe(true);
    expect(existsSync(neither.factoryFile)).toBe(false);
  });

  it('reports each file as JSON with --json', async () => {
    const { env, claudeFile } = setup({ claude: USER_TEXT });
    const result = await runCli(['install', '--target', 'claude', '--json'], { env });
    const report = JSON.parse(result.stdout) as { action: string; dryRun: boolean; targets: { agent: string; file: string; status: string; written: boolean; backup: string; hooks: { name: string; action: string }[] }[] };
    expect(report).toMatchObject({ action: 'install', dryRun: false });
    expect(report.targets).toHaveLength(1);
    expect(report.targets[0]).toMatchObject({ agent: 'claude', file: claudeFile, status: 'installed', written: true });
    expect(report.targets[0]!.backup).toContain('.recall-backup-');
    expect(report.targets[0]!.hooks.map((h) => `${h.name}:${h.action}`)).toEqual(['session-start:added', 'session-end:added']);
  });

  it('adds the Endless Mode hook with a 90 s timeout only with --endless, and a later plain install keeps it', async () => {
    const { env, claudeFile } = setup({ claude: USER_TEXT });
    await runCli(['install', '--target', 'claude'], { env });
    expect(readSettings(claudeFile).hooks?.PostToolUse).toBeUndefined();
    await runCli(['install', '--target', 'claude', '--endless'], { env });
    expect(readSettings(claudeFile).hooks?.PostToolUse).toEqual([
      { matcher: '*', hooks: [{ type: 'command', command: `${quoted(process.execPath)} ${quoted(BIN)} hook post-tool-use`, timeout: 90 }] },
    ]);
    const plain = await runCli(['install', '--target', 'claude'], { env });
    expect(plain.stdout).toContain('already installed');
  });

  it('rejects an unknown --target with a one-line error', async () => {
    const { env } = setup();
    const result = await runCli(['install', '--target', 'vim'], { env });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toMatch(/^recall: option '--target <agent>' argument 'vim' is invalid/);
  });

  it('installs a SessionEnd command that a shell can run, and that queues the capture', async () => {
    const { env, home, factoryFile } = setup({ dirs: ['.factory'] });
    await runCli(['install', '--target', 'factory'], { env });
    const [command] = commands(readSettings(factoryFile), 'SessionEnd');
    const payload = JSON.stringify({ session_id: 's-1', transcript_path: join(home, 'session.jsonl'), cwd: home, hook_event_name: 'SessionEnd', reason: 'exit' });
    const run = await execa('/bin/sh', ['-c', command!], { env: { ...env, RECALL_HOOK_SPAWN: '0' }, extendEnv: false, input: payload, reject: false });
    expect(run.exitCode).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({});
    const pending = join(home, '.recall', 'spool', 'pending');
    const jobs = readdirSync(pending);
    expect(jobs).toHaveLength(1);
    expect(JSON.parse(readFileSync(join(pending, jobs[0]!), 'utf8'))).toMatchObject({ sessionId: 's-1', agent: 'factory' });
  });
});

describe('recall install with RECALL_HOME set', () => {
  it('writes it into the hook commands, so a hook the agent runs without it still captures into that state dir', async () => {
    const { env, home, factoryFile } = setup({ dirs: ['.factory'] });
    const stateDir = join(home, 'data dir', 'recall');
    const result = await runCli(['install', '--target', 'factory'], { env: { ...env, RECALL_HOME: stateDir } });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain(`hooks use RECALL_HOME=${stateDir}\n`);
    const [command] = commands(readSettings(factoryFile), 'SessionEnd');
    expect(command).toBe(`RECALL_HOME=${quoted(stateDir)} ${quoted(process.execPath)} ${quoted(BIN)} hook session-end --agent factory`);

    const payload = JSON.stringify({ session_id: 's-2', transcript_path: join(home, 'session.jsonl'), cwd: home, hook_event_name: 'SessionEnd', reason: 'exit' });
    const run = await execa('/bin/sh', ['-c', command!], { env: { ...env, RECALL_HOOK_SPAWN: '0' }, extendEnv: false, input: payload, reject: false });
    expect(run.exitCode).toBe(0);
    expect(readdirSync(join(stateDir, 'spool', 'pending'))).toHaveLength(1);
    expect(existsSync(join(home, '.recall', 'spool', 'pending'))).toBe(false);
  });

  it('changes nothing for the same RECALL_HOME, moves the hooks in place to another, and uninstall still finds them', async () => {
    const { env, home, claudeFile } = setup({ claude: USER_TEXT });
    const first = { ...env, RECALL_HOME: join(home, 'a') };
    const second = { ...env, RECALL_HOME: join(home, 'b') };
    await runCli(['install', '--target', 'claude', '--no-mcp'], { env: first });
    const installed = readFileSync(claudeFile, 'utf8');
    const again = await runCli(['install', '--target', 'claude', '--no-mcp'], { env: first });
    expect(again.stdout).toContain('already installed');
    expect(readFileSync(claudeFile, 'utf8')).toBe(installed);

    const moved = await runCli(['install', '--target', 'claude', '--no-mcp', '--json'], { env: second });
    const report = JSON.parse(moved.stdout) as { targets: { status: string; recallHome: string | null }[] };
    expect(report.targets).toEqual([expect.objectContaining({ status: 'updated', recallHome: join(home, 'b') })]);
    expect(commands(readSettings(claudeFile), 'SessionEnd')).toEqual([
      USER_SETTINGS.hooks.SessionEnd[0]!.hooks[0]!.command,
      `RECALL_HOME=${quoted(join(home, 'b'))} ${quoted(process.execPath)} ${quoted(BIN)} hook session-end`,
    ]);
    expect(commands(readSettings(claudeFile), 'SessionStart')).toHaveLength(1);

    await runCli(['uninstall', '--target', 'claude', '--no-mcp'], { env });
    expect(readFileSync(claudeFile, 'utf8')).toBe(USER_TEXT);
  });
});

describe('recall uninstall', () => {
  it("gives back the user's original file byte for byte after install", async () => {
    const { env, claudeFile } = setup({ claude: USER_TEXT });
    await runCli(['install', '--target', 'claude', '--endless'], { env });
    const result = await runCli(['uninstall', '--target', 'claude'], { env });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain(`claude: removed SessionEnd, SessionStart, PostToolUse hooks from ${claudeFile}`);
    expect(readFileSync(claudeFile, 'utf8')).toBe(USER_TEXT);
    expect(backupsBeside(claudeFile)).toHaveLength(2);
  });

  it('restores a file with four-space indentation and no final newline byte for byte', async () => {
    const text = JSON.stringify(USER_SETTINGS, null, 4);
    const { env, claudeFile } = setup({ claude: text });
    await runCli(['install', '--target', 'claude'], { env });
    expect(readFileSync(claudeFile, 'utf8')).toMatch(/^ {4}"model"/m);
    await runCli(['uninstall', '--target', 'claude'], { env });
    expect(readFileSync(claudeFile, 'utf8')).toBe(text);
  });

  it('removes only the Endless Mode hook with --endless', async () => {
    const { env, claudeFile } = setup({ claude: USER_TEXT });
    await runCli(['install', '--target', 'claude', '--endless'], { env });
    await runCli(['uninstall', '--target', 'claude', '--endless'], { env });
    const settings = readSettings(claudeFile);
    expect(settings.hooks?.PostToolUse).toBeUndefined();
    expect(commands(settings, 'SessionEnd')).toHaveLength(2);
  });

  it('changes nothing when recall is not installed: no rewrite, no backup', async () => {
    const { env, claudeFile } = setup({ claude: USER_TEXT });
    const result = await runCli(['uninstall', '--target', 'claude'], { env });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain('nothing to remove');
    expect(readFileSync(claudeFile, 'utf8')).toBe(USER_TEXT);
    expect(backupsBeside(claudeFile)).toEqual([]);
  });

  it('prints the removal with --dry-run and writes nothing', async () => {
    const { env, claudeFile } = setup({ claude: USER_TEXT });
    await runCli(['install', '--target', 'claude'], { env });
    const installed = readFileSync(claudeFile, 'utf8');
    const result = await runCli(['uninstall', '--target', 'claude', '--dry-run'], { env });
    expect(result.stdout).toMatch(/^ {4}- .*hook session-end/m);
    expect(readFileSync(claudeFile, 'utf8')).toBe(installed);
    expect(backupsBeside(claudeFile)).toHaveLength(1);
  });

  it('refuses a settings file that is not JSON with exit 1', async () => {
    const { env, factoryFile } = setup({ factory: 'nope' });
    const result = await runCli(['uninstall', '--target', 'factory'], { env });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain(`recall: ${factoryFile} is not valid JSON`);
    expect(readFileSync(factoryFile, 'utf8')).toBe('nope');
  });
});
