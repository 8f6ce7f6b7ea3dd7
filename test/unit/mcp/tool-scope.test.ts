import { describe, expect, it } from 'vitest';
import { isRecallError } from '../../../src/core/errors.js';
import type { MemoryRecord } from '../../../src/core/memory.js';
import type { GroupCount, MemoryStore } from '../../../src/core/ports.js';
import { systemClock } from '../../../src/core/ports.js';
import { silentLogger } from '../../../src/core/log.js';
import type { McpContext } from '../../../src/mcp/mcp-context.js';
import { labelOf, readScope, writeOrigin } from '../../../src/mcp/tool-scope.js';
import type { Runtime } from '../../../src/worker/runtime.js';

const SHOP = 'project:shop-1a2b3c4d';
const API = 'project:api-0000abcd';

/** A store double that knows which namespaces hold memories; only what scoping reads. */
function contextWith(groups: GroupCount[], options: { inProject?: boolean; apiRoot?: string } = {}): McpContext {
  const store: Pick<MemoryStore, 'count' | 'countByNamespaceAndType' | 'list'> = {
    count: async (filters = {}) => groups.filter((g) => filters.namespace === undefined || g.namespace === filters.namespace).reduce((n, g) => n + g.count, 0),
    countByNamespaceAndType: async () => groups,
    list: async (opts) => (opts.namespace === API ? [{ projectRoot: options.apiRoot ?? null } as MemoryRecord] : []),
  };
  const runtime = { store: async () => store, clock: systemClock } as unknown as Runtime;
  const project = options.inProject === false ? { namespace: 'global', name: null, root: null } : { namespace: SHOP, name: 'shop', root: '/w/shop' };
  return { runtime, logger: silentLogger, cwd: '/w/shop', project };
}

describe('readScope', () => {
  it('reads the server project and global by default, even before the project holds anything', async () => {
    expect(await readScope(undefined, contextWith([]), { withGlobal: true })).toEqual({ filters: { namespaces: [SHOP, 'global'] }, label: 'project shop and global' });
    expect(await readScope('  ', contextWith([]), { withGlobal: true })).toEqual({ filters: { namespaces: [SHOP, 'global'] }, label: 'project shop and global' });
  });

  it('reads the project alone when global is not wanted, and global alone outside a project', async () => {
    expect(await readScope(undefined, contextWith([]), { withGlobal: false })).toEqual({ filters: { namespace: SHOP }, label: 'project shop' });
    expect(await readScope(undefined, contextWith([], { inProject: false }), { withGlobal: true })).toEqual({ filters: { namespace: 'global' }, label: 'global' });
  });

  it('reads every namespace for "all" and one known namespace when named', async () => {
    const ctx = contextWith([{ namespace: API, type: 'decision', count: 2 }]);
    expect(await readScope('all', ctx, { withGlobal: true })).toEqual({ filters: {}, label: 'all namespaces' });
    expect(await readScope(API, ctx, { withGlobal: true })).toEqual({ filters: { namespace: API }, label: 'project api' });
    expect(await readScope('global', ctx, { withGlobal: true })).toEqual({ filters: { namespace: 'global' }, label: 'global' });
  });

  it('refuses an unknown namespace with INPUT_INVALID and a close suggestion', async () => {
    const ctx = contextWith([{ namespace: API, type: 'decision', count: 2 }]);
    const err = await readScope('project:apj-0000abcd', ctx, { withGlobal: true }).catch((e: unknown) => e);
    expect(isRecallError(err, 'INPUT_INVALID')).toBe(true);
    expect((err as Error).message).toBe(`unknown namespace "project:apj-0000abcd"; did you mean ${API}?`);
  });
});

describe('writeOrigin', () => {
  it('writes to the server project with its root by default, as an mcp memory', async () => {
    expect(await writeOrigin(undefined, contextWith([]))).toEqual({ namespace: SHOP, projectRoot: '/w/shop', sessionId: null, source: 'mcp' });
  });

  it('writes to global without a project root', async () => {
    expect(await writeOrigin('global', contextWith([]))).toEqual({ namespace: 'global', projectRoot: null, sessionId: null, source: 'mcp' });
  });

  it('keeps the project root other memories of a named namespace recorded', async () => {
    const ctx = contextWith([{ namespace: API, type: 'decision', count: 1 }], { apiRoot: '/w/api' });
    expect(await writeOrigin(API, ctx)).toMatchObject({ namespace: API, projectRoot: '/w/api' });
  });

  it('refuses "all", which names no single namespace', async () => {
    await expect(writeOrigin('all', contextWith([]))).rejects.toThrow(/"all" reads every namespace/);
  });
});

describe('labelOf', () => {
  it('shows a project namespace by its folder name and anything else as it is', () => {
    expect(labelOf(SHOP)).toBe('project shop');
    expect(labelOf('global')).toBe('global');
    expect(labelOf('imported')).toBe('imported');
  });
});
