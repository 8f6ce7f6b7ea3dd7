import { describe, expect, it } from 'vitest';
import { isRecallError } from '../../../src/core/errors.js';
import type { MemoryRecord } from '../../../src/core/memory.js';
import type { GroupCount, MemoryStore } from '../../../src/core/ports.js';
import { systemClock } from '../../../src/core/ports.js';
import { silentLogger } from '../../../src/core/log.js';
import type { McpContext } from '../../../src/mcp/mcp-context.js';
import { labelOf, readScope, writeOrigin } from '../../../src/mcp/tool-scope.js';
import type { Runtime } from '../../../src/app/runtime.js';

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
  it('reads the server project and global by default, even before the project holds anything', () => {
    expect(readScope(undefined, contextWith([]), { withGlobal: true })).toEqual({ filters: { namespaces: [SHOP, 'global'], quarantine: 'exclude' }, label: 'project shop and global' });
    expect(readScope('  ', contextWith([]), { withGlobal: true })).toEqual({ filters: { namespaces: [SHOP, 'global'], quarantine: 'exclude' }, label: 'project shop and global' });
  });

  it('reads the project alone when global is not wanted, and global alone outside a project', () => {
    expect(readScope(undefined, contextWith([]), { withGlobal: false })).toEqual({ filters: { namespace: SHOP, quarantine: 'exclude' }, label: 'project shop' });
    expect(readScope(undefined, contextWith([], { inProject: false }), { withGlobal: true })).toEqual({ filters: { namespace: 'global', quarantine: 'exclude' }, label: 'global' });
  });

  it('reads the project and global for "all", and one of them when named by namespace or folder name', () => {
    const ctx = contextWith([{ namespace: API, type: 'decision', count: 2 }]);
    expect(readScope('all', ctx, { withGlobal: false })).toEqual({ filters: { namespaces: [SHOP, 'global'], quarantine: 'exclude' }, label: 'project shop and global' });
    expect(readScope(SHOP, ctx, { withGlobal: true })).toEqual({ filters: { namespace: SHOP, quarantine: 'exclude' }, label: 'project shop' });
    expect(readScope('shop', ctx, { withGlobal: true })).toEqual({ filters: { namespace: SHOP, quarantine: 'exclude' }, label: 'project shop' });
    expect(readScope('global', ctx, { withGlobal: true })).toEqual({ filters: { namespace: 'global', quarantine: 'exclude' }, label: 'global' });
  });

  it("refuses another project's namespace, known or not, without naming what exists", () => {
    const ctx = contextWith([{ namespace: API, type: 'decision', count: 2 }]);
    for (const other of [API, 'api', 'project:apj-0000abcd']) {
      let err: unknown;
      try {
        readScope(other, ctx, { withGlobal: true });
      } catch (e) {
        err = e;
      }
      expect(isRecallError(err, 'INPUT_INVALID')).toBe(true);
      expect((err as Error).message).toBe(`this server reads and writes only project shop and global memories; "${other}" is outside them (\`recall search --project\` in a terminal reads other projects)`);
    }
  });

  it('reads only global outside a project, whatever "all" says', () => {
    const ctx = contextWith([], { inProject: false });
    expect(readScope('all', ctx, { withGlobal: true })).toEqual({ filters: { namespace: 'global', quarantine: 'exclude' }, label: 'global' });
    expect(() => readScope(SHOP, ctx, { withGlobal: true })).toThrow(/reads and writes only global memories/);
  });
});

describe('writeOrigin', () => {
  it('writes to the server project with its root by default, as an mcp memory', () => {
    expect(writeOrigin(undefined, contextWith([]))).toEqual({ namespace: SHOP, projectRoot: '/w/shop', sessionId: null, source: 'mcp' });
  });

  it('writes to global without a project root', () => {
    expect(writeOrigin('global', contextWith([]))).toEqual({ namespace: 'global', projectRoot: null, sessionId: null, source: 'mcp' });
  });

  it("refuses to write into another project's namespace", () => {
    const ctx = contextWith([{ namespace: API, type: 'decision', count: 1 }], { apiRoot: '/w/api' });
    expect(() => writeOrigin(API, ctx)).toThrow(/reads and writes only project shop and global memories/);
  });

  it('refuses "all", which names no single namespace', () => {
    expect(() => writeOrigin('all', contextWith([]))).toThrow(/"all" reads this project and global/);
  });
});

describe('labelOf', () => {
  it('shows a project namespace by its folder name and anything else as it is', () => {
    expect(labelOf(SHOP)).toBe('project shop');
    expect(labelOf('global')).toBe('global');
    expect(labelOf('imported')).toBe('imported');
  });
});
