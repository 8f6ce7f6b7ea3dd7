import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resolveProject } from '../../../src/project/resolve-project.js';

let base: string;

beforeEach(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'recall-project-')));
});
afterEach(() => {
  rmSync(base, { recursive: true, force: true });
});

function dir(...parts: string[]): string {
  const path = join(base, ...parts);
  mkdirSync(path, { recursive: true });
  return path;
}

describe('resolveProject', () => {
  it('finds the nearest project root above a nested directory', () => {
    const outer = dir('outer');
    mkdirSync(join(outer, '.git'));
    const inner = dir('outer', 'packages', 'inner');
    writeFileSync(join(inner, 'package.json'), '{}');
    const deep = dir('outer', 'packages', 'inner', 'src', 'lib');

    expect(resolveProject(deep).root).toBe(inner);
    expect(resolveProject(dir('outer', 'docs')).root).toBe(outer);
  });

  it('names the namespace after the folder plus a hash of its real path', () => {
    const root = dir('my-app');
    writeFileSync(join(root, 'Cargo.toml'), '');
    const project = resolveProject(root);
    expect(project.name).toBe('my-app');
    expect(project.namespace).toMatch(/^project:my-app-[0-9a-f]{8}$/);
  });

  it('gives two same-named projects in different parents different namespaces', () => {
    const a = dir('a', 'api');
    const b = dir('b', 'api');
    writeFileSync(join(a, 'go.mod'), '');
    writeFileSync(join(b, 'pyproject.toml'), '');
    expect(resolveProject(a).namespace).not.toBe(resolveProject(b).namespace);
  });

  it('accepts a .git file, as in worktrees and submodules', () => {
    const root = dir('worktree');
    writeFileSync(join(root, '.git'), 'gitdir: /elsewhere\n');
    expect(resolveProject(dir('worktree', 'src')).root).toBe(root);
  });

  it('maps a path reached through a symlink to the same namespace', () => {
    const root = dir('real-project');
    writeFileSync(join(root, 'package.json'), '{}');
    dir('real-project', 'src');
    const link = join(base, 'link');
    symlinkSync(root, link);
    expect(resolveProject(join(link, 'src'))).toEqual(resolveProject(join(root, 'src')));
  });

  it('falls back to global for a missing, empty or nonexistent cwd', () => {
    const global = { namespace: 'global', name: null, root: null };
    expect(resolveProject(undefined)).toEqual(global);
    expect(resolveProject(null)).toEqual(global);
    expect(resolveProject('')).toEqual(global);
    expect(resolveProject(join(base, 'does', 'not', 'exist'))).toEqual(global);
  });

  it('falls back to global when no marker sits above cwd', () => {
    expect(resolveProject(dir('plain', 'folder'), { homeDir: base }).namespace).toBe('global');
  });

  it('never treats the home directory itself as a project, even with a marker', () => {
    const home = dir('home');
    mkdirSync(join(home, '.git'));
    writeFileSync(join(home, 'package.json'), '{}');
    expect(resolveProject(dir('home', 'notes'), { homeDir: home }).namespace).toBe('global');
    expect(resolveProject(home, { homeDir: home }).namespace).toBe('global');

    const project = dir('home', 'code', 'app');
    writeFileSync(join(project, 'package.json'), '{}');
    expect(resolveProject(project, { homeDir: home }).root).toBe(project);
  });
});
