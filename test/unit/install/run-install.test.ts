import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isRecallError } from '../../../src/core/errors.js';
import { renderInstallReport } from '../../../src/install/render-install-report.js';
import { runInstall, type InstallOptions } from '../../../src/install/run-install.js';
import { backupPathFor, readSettingsFile } from '../../../src/install/settings-file.js';
import { useTempDirs } from '../../support/temp-dir.js';

const tempDir = useTempDirs();
const install: InstallOptions & { dryRun: boolean; now: Date } = {
  action: 'install',
  endless: false,
  nodePath: '/usr/bin/node',
  cliPath: '/opt/recall/dist/cli/main.js',
  env: {},
  dryRun: false,
  now: new Date('2026-03-04T05:06:07.089Z'),
};
const USER = `${JSON.stringify({ model: 'opus', hooks: { Stop: [{ hooks: [{ type: 'command', command: 'echo stop' }] }] } }, null, 2)}\n`;

function backupsIn(dir: string): string[] {
  return readdirSync(dir).filter((name) => name.includes('.recall-backup-'));
}

describe('readSettingsFile', () => {
  it('reads a missing file as empty settings that do not exist yet', () => {
    const snapshot = readSettingsFile(join(tempDir(), 'nope', 'settings.json'));
    expect(snapshot).toMatchObject({ exists: false, settings: {}, mode: null });
  });

  it('refuses a directory, naming it', () => {
    const dir = join(tempDir(), 'settings.json');
    mkdirSync(dir);
    expect(() => readSettingsFile(dir)).toThrow(`${dir} is a directory`);
  });

  it('refuses text that is not JSON, and JSON that is not an object, with CONFIG_INVALID', () => {
    const file = join(tempDir(), 'settings.json');
    writeFileSync(file, '{ "model": ');
    expect(() => readSettingsFile(file)).toThrow(/is not valid JSON/);
    writeFileSync(file, '[1, 2]');
    try {
      readSettingsFile(file);
      expect.unreachable();
    } catch (err) {
      expect(isRecallError(err, 'CONFIG_INVALID')).toBe(true);
      expect((err as Error).message).toContain(`${file} must hold a JSON object`);
    }
  });
});

describe('backupPathFor', () => {
  it('names the backup after the file and the time, and never reuses a name', () => {
    const now = new Date('2026-03-04T05:06:07.089Z');
    expect(backupPathFor('/h/settings.json', now, () => false)).toBe('/h/settings.json.recall-backup-2026-03-04T05-06-07-089Z');
    const taken = new Set(['/h/settings.json.recall-backup-2026-03-04T05-06-07-089Z']);
    expect(backupPathFor('/h/settings.json', now, (p) => taken.has(p))).toBe('/h/settings.json.recall-backup-2026-03-04T05-06-07-089Z-2');
  });
});

describe('runInstall', () => {
  it('keeps a backup with the original bytes and mode, and gives the new file the same mode', () => {
    const dir = tempDir();
    const file = join(dir, 'settings.json');
    writeFileSync(file, USER);
    chmodSync(file, 0o640);
    const [outcome] = runInstall([{ agent: 'claude', file }], install);
    expect(outcome).toMatchObject({ status: 'installed', written: true, created: false });
    expect(readFileSync(outcome!.backup!, 'utf8')).toBe(USER);
    expect(statSync(outcome!.backup!).mode & 0o777).toBe(0o640);
    expect(statSync(file).mode & 0o777).toBe(0o640);
  });

  it('creates a missing file and its folder, private to the user, without a backup', () => {
    const file = join(tempDir(), '.claude', 'settings.json');
    const [outcome] = runInstall([{ agent: 'claude', file }], install);
    expect(outcome).toMatchObject({ status: 'installed', created: true, backup: null });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toHaveProperty('hooks.SessionEnd');
  });

  it('writes through a symlinked settings file and leaves the link in place', () => {
    const dir = tempDir();
    const real = join(dir, 'dotfiles-settings.json');
    const link = join(dir, 'settings.json');
    writeFileSync(real, USER);
    symlinkSync(real, link);
    runInstall([{ agent: 'claude', file: link }], install);
    expect(readFileSync(real, 'utf8')).toContain('hook session-end');
    expect(readFileSync(link, 'utf8')).toBe(readFileSync(real, 'utf8'));
    expect(backupsIn(dir)).toHaveLength(1);
  });

  it('writes nothing to any file when one of the targets must be refused', () => {
    const dir = tempDir();
    const good = join(dir, 'claude.json');
    const bad = join(dir, 'factory.json');
    writeFileSync(good, USER);
    writeFileSync(bad, 'not json');
    expect(() =>
      runInstall(
        [
          { agent: 'claude', file: good },
          { agent: 'factory', file: bad },
        ],
        install,
      ),
    ).toThrow(/factory\.json is not valid JSON/);
    expect(readFileSync(good, 'utf8')).toBe(USER);
    expect(backupsIn(dir)).toEqual([]);
  });

  it('names the file when its hooks section has the wrong shape', () => {
    const file = join(tempDir(), 'settings.json');
    writeFileSync(file, '{"hooks": []}');
    expect(() => runInstall([{ agent: 'claude', file }], install)).toThrow(`${file}: "hooks" must be an object, found an array; recall changed nothing`);
  });

  it('on a dry run reports the diff and writes nothing', () => {
    const dir = tempDir();
    const file = join(dir, 'settings.json');
    writeFileSync(file, USER);
    const [outcome] = runInstall([{ agent: 'claude', file }], { ...install, dryRun: true });
    expect(outcome).toMatchObject({ status: 'installed', written: false, backup: null, dryRun: true });
    expect(outcome!.diff.some((line) => line.startsWith('+') && line.includes('hook session-end'))).toBe(true);
    expect(readFileSync(file, 'utf8')).toBe(USER);
    expect(backupsIn(dir)).toEqual([]);
    expect(renderInstallReport([outcome!]).at(-1)).toBe('dry run: nothing written');
  });

  it('does not create a file to uninstall from', () => {
    const file = join(tempDir(), '.claude', 'settings.json');
    const [outcome] = runInstall([{ agent: 'claude', file }], { ...install, action: 'uninstall' });
    expect(outcome).toMatchObject({ status: 'not-installed', written: false });
    expect(existsSync(file)).toBe(false);
  });

  it('notes a Factory hooks.json that newer droid versions read instead of settings.json', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'hooks.json'), '{}');
    const [outcome] = runInstall([{ agent: 'factory', file: join(dir, 'settings.json') }], install);
    expect(outcome!.notes.join('\n')).toContain(join(dir, 'hooks.json'));
  });

  it('notes when the recall plugin is enabled in the same Claude Code settings', () => {
    const file = join(tempDir(), 'settings.json');
    writeFileSync(file, JSON.stringify({ enabledPlugins: { 'recall@local': true } }));
    const [outcome] = runInstall([{ agent: 'claude', file }], install);
    expect(outcome!.notes.join('\n')).toMatch(/recall plugin is enabled/);
  });
});
