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

  it('picks every agent for --target all, whether or not their folders exist', () => {
    expect(resolveInstallTargets({ ...base, target: 'all', exists: existing() }).map((t) => t.agent)).toEqual(['claude', 'factory', 'codex', 'gemini', 'copilot', 'qwen']);
  });

  it("picks Codex's hooks.json for --target codex, in CODEX_HOME when it is set", () => {
    expect(resolveInstallTargets({ ...base, target: 'codex', exists: existing() })).toEqual([{ agent: 'codex', file: '/home/me/.codex/hooks.json' }]);
    expect(resolveInstallTargets({ ...base, codexHome: '/data/codex', target: 'codex', exists: existing() })).toEqual([{ agent: 'codex', file: '/data/codex/hooks.json' }]);
    expect(resolveInstallTargets({ ...base, codexHome: '/data/codex', project: true, target: 'codex', exists: existing() })).toEqual([{ agent: 'codex', file: '/work/app/.codex/hooks.json' }]);
  });

  it('finds Codex by its home folder when no target is named', () => {
    expect(resolveInstallTargets({ ...base, target: undefined, exists: existing('/home/me/.codex') }).map((t) => t.agent)).toEqual(['codex']);
    expect(resolveInstallTargets({ ...base, codexHome: '/data/codex', target: undefined, exists: existing('/data/codex') }).map((t) => t.agent)).toEqual(['codex']);
  });

  it('uses the project folder under the working directory with --project', () => {
    expect(resolveInstallTargets({ ...base, project: true, target: 'all', exists: existing() }).map((t) => t.file)).toEqual([
      '/work/app/.claude/settings.json',
      '/work/app/.factory/settings.json',
      '/work/app/.codex/hooks.json',
      '/work/app/.gemini/settings.json',
      '/work/app/.github/hooks/recall.json',
      '/work/app/.qwen/settings.json',
    ]);
  });

  it("picks Qwen Code's settings.json in ~/.qwen, or the project's .qwen with --project", () => {
    expect(resolveInstallTargets({ ...base, target: 'qwen', exists: existing() })).toEqual([{ agent: 'qwen', file: '/home/me/.qwen/settings.json' }]);
    expect(resolveInstallTargets({ ...base, project: true, target: 'qwen', exists: existing() })).toEqual([{ agent: 'qwen', file: '/work/app/.qwen/settings.json' }]);
    expect(resolveInstallTargets({ ...base, target: undefined, exists: existing('/home/me/.qwen') }).map((t) => t.agent)).toEqual(['qwen']);
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
