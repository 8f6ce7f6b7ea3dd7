import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isRecallError } from '../../../src/core/errors.js';
import type { GroupCount, MemoryFilters } from '../../../src/core/ports.js';
import { resolveProject } from '../../../src/project/resolve-project.js';
import { resolveScope } from '../../../src/search/resolve-scope.js';
import type { ScopeInput } from '../../../src/search/resolve-scope.js';
import { useTempDirs } from '../../support/temp-dir.js';

const tempDir = useTempDirs();
const NOW = new Date('2024-05-10T12:00:00.000Z');

/** A store holding one memory per namespace; counts by exact namespace or by project name. */
function storeWith(namespaces: string[]) {
  const groups: GroupCount[] = namespaces.map((namespace) => ({ namespace, type: 'preference', count: 1 }));
  const matches = (ns: string, filters: MemoryFilters) =>
    (filters.namespace === undefined || ns === filters.namespace) &&
    (filters.projectName === undefined || new RegExp(`^project:${filters.projectName}-[0-9a-f]{8}$`).test(ns));
  return {
    count: async (filters: MemoryFilters = {}) => groups.filter((g) => matches(g.namespace, filters)).length,
    countByNamespaceAndType: async () => groups,
  };
}

const STORE = storeWith(['global', 'project:api-1a2b3c4d', 'project:api-99990000', 'project:shop-5e6f7a8b']);

function scope(input: ScopeInput, cwd = '/', store = STORE) {
  return resolveScope(input, { store, cwd, now: NOW, homeDir: '/nonexistent-home' });
}

async function messageOf(promise: Promise<unknown>): Promise<string> {
  const err = await promise.then(() => null, (e: unknown) => e);
  return isRecallError(err, 'INPUT_INVALID') ? err.message : `not an INPUT_INVALID error: ${String(err)}`;
}

describe('resolveScope', () => {
  it('passes a known namespace, a type and a since date through as filters', async () => {
    expect(await scope({ namespace: 'project:shop-5e6f7a8b', type: 'decision', since: '2d' })).toEqual({
      namespace: 'project:shop-5e6f7a8b', type: 'decision', since: new Date('2024-05-08T12:00:00.000Z'),
    });
    expect(await scope({ namespace: 'global' }, '/', storeWith([]))).toEqual({ namespace: 'global' });
    expect(await scope({})).toEqual({});
  });

  it('names an unknown namespace and suggests close ones', async () => {
    expect(await messageOf(scope({ namespace: 'project:shop' }))).toBe('unknown namespace "project:shop"; did you mean project:shop-5e6f7a8b?');
    expect(await messageOf(scope({ namespace: 'nothing-like-it' }))).toBe(
      'unknown namespace "nothing-like-it"; known: global, project:api-1a2b3c4d, project:api-99990000, project:shop-5e6f7a8b',
    );
    expect(await messageOf(scope({ namespace: 'x' }, '/', storeWith([])))).toBe('unknown namespace "x" (no memories are stored yet)');
  });

  it('matches every project of a bare name, and suggests names for an unknown one', async () => {
    expect(await scope({ project: 'api' })).toEqual({ projectName: 'api' });
    expect(await messageOf(scope({ project: 'shp' }))).toBe('unknown project "shp"; did you mean shop?');
  });

  it('resolves a project path to the namespace of its root', async () => {
    const root = join(tempDir(), 'web');
    mkdirSync(join(root, 'src'), { recursive: true });
    writeFileSync(join(root, 'package.json'), '{}');
    const expected = resolveProject(root).namespace;
    expect(await scope({ project: join(root, 'src') })).toEqual({ namespace: expected });
    expect(await scope({ project: './src' }, root)).toEqual({ namespace: expected });
    expect(await scope({ here: true }, join(root, 'src'))).toEqual({ namespace: expected });
  });

  it('rejects a missing folder, a folder outside any project, and two scopes at once', async () => {
    const plain = tempDir();
    expect(await messageOf(scope({ project: join(plain, 'missing') }))).toMatch(/no such folder$/);
    expect(await messageOf(scope({ project: plain }))).toMatch(/is not inside a project/);
    expect(await messageOf(scope({ namespace: 'global', here: true }))).toBe('use only one of --namespace, --project and --here');
  });

  it('rejects an unknown type by listing the real ones', async () => {
    expect(await messageOf(scope({ type: 'rule' }))).toBe('unknown type "rule"; use one of golden_rule, preference, decision, pattern, session');
  });
});
