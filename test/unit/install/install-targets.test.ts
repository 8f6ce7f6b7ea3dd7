import { describe, expect, it } from 'vitest';
import { resolveInstallTargets } from '../../../src/install/install-targets.js';

const base = { home: '/home/me', cwd: '/work/app', project: false };
const existing = (...paths: string[]) => (p: string) => paths.includes(p);

describe('resolveInstallTargets', () => {
  it("picks the user's Claude Code settings for --target claude", () => {
    expect(resolveInstallTargets({ ...base, target: 'claude', exists: existing() })).toEqual([{ agent: 'claude', file: '/home/me/.claude/settings.json' }]);
  });

  it("picks the user's Factory settings for --target factory", () => {
    expect(resolveInstallTargets({ ...base, target: 'factory', exists: existing() })).toEqual([{ agent: 'factory', file: '/home/me/.factory/settings.json' }]);
  });

  it('picks both for --target all, whether or not their folders exist', () => {
    expect(resolveInstallTargets({ ...base, target: 'all', exists: existing() }).map((t) => t.agent)).toEqual(['claude', 'factory']);
  });

  it('uses the project folder under the working directory with --project', () => {
    expect(resolveInstallTargets({ ...base, project: true, target: 'all', exists: existing() }).map((t) => t.file)).toEqual([
      '/work/app/.claude/settings.json',
      '/work/app/.factory/settings.json',
    ]);
  });

  it('defaults to the agents whose folder exists in the home folder', () => {
    expect(resolveInstallTargets({ ...base, target: undefined, exists: existing('/home/me/.factory') }).map((t) => t.agent)).toEqual(['factory']);
    expect(resolveInstallTargets({ ...base, target: undefined, exists: existing('/home/me/.claude', '/home/me/.factory') }).map((t) => t.agent)).toEqual([
      'claude',
      'factory',
    ]);
  });

  it('defaults to Claude Code when neither agent folder exists', () => {
    expect(resolveInstallTargets({ ...base, target: undefined, exists: existing() })).toEqual([{ agent: 'claude', file: '/home/me/.claude/settings.json' }]);
  });
});
