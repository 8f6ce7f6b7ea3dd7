import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { contextFilePath, parseContextFile, type ContextFile } from '../../../src/context/context-file.js';
import { LIST_LIMIT_PER_TYPE, projectNameOf, refreshContext } from '../../../src/context/refresh-context.js';
import { IMPORTANCE_BY_TYPE, type MemoryRecord, type MemoryType } from '../../../src/core/memory.js';
import type { ListOptions } from '../../../src/core/ports.js';
import { configSchema } from '../../../src/config/schema.js';
import { renderContextTargets, type ContextTarget } from '../../../src/context/render-targets.js';
import { serveSocketPath } from '../../../src/serve-client/serve-client.js';
import { serveIdentity } from '../../../src/serve-client/serve-identity.js';
import { contextRendererAt } from '../../../src/serve-client/served-context.js';
import type { ServeIdentity } from '../../../src/serve-client/serve-protocol.js';
import { startFakeDaemon } from '../../support/fake-daemon.js';
import { useTempDirs } from '../../support/temp-dir.js';

const NOW = new Date('2025-03-10T12:00:00Z');
const SHOP = 'project:shop-0123abcd';
const API = 'project:api-89abcdef';
const tempDir = useTempDirs();
const DEFAULTS = configSchema.parse({});

class ListDouble {
  readonly calls: ListOptions[] = [];
  constructor(public memories: MemoryRecord[]) {}
  async list(options: ListOptions): Promise<MemoryRecord[]> {
    this.calls.push(options);
    return this.memories
      .filter((m) => (options.namespace === undefined || m.namespace === options.namespace) && (options.type === undefined || m.type === options.type))
      .slice(0, options.limit);
  }
}

let counter = 0;
function memory(namespace: string, content: string, type: MemoryType): MemoryRecord {
  counter += 1;
  return {
    id: `m${counter}`,
    content,
    type,
    importance: IMPORTANCE_BY_TYPE[type],
    namespace,
    projectRoot: null,
    sessionId: null,
    source: 'claude',
    embedder: 'hash:64',
    createdAt: new Date(NOW.getTime() - counter * 1000).toISOString(),
    lastSeenAt: new Date(NOW.getTime() - counter * 1000).toISOString(),
    seenCount: 1,
  };
}

function setup(memories: MemoryRecord[], includeGlobal = true) {
  const home = tempDir();
  const contextDir = join(home, 'context');
  const store = new ListDouble(memories);
  const paths = { contextDir, home, dbDir: join(home, 'db') };
  const config = { context: { maxChars: 6000, includeGlobal }, store: DEFAULTS.store, embedder: DEFAULTS.embedder };
  const renderElsewhere = contextRendererAt(serveSocketPath(home), serveIdentity(config, paths.dbDir));
  const deps = { store, paths, renderElsewhere, config, clock: { now: () => NOW } };
  const read = (namespace: string): ContextFile | null => {
    try {
      return parseContextFile(readFileSync(contextFilePath(contextDir, namespace), 'utf8'), namespace);
    } catch {
      return null;
    }
  };
  return { contextDir, store, deps, read };
}

describe('refreshContext', () => {
  it('writes a private, versioned context file for the project', async () => {
    const { deps, read, contextDir } = setup([memory(SHOP, 'You MUST use pnpm.', 'golden_rule')]);
    await refreshContext([SHOP], deps);
    const file = read(SHOP)!;
    expect(file).toMatchObject({ version: 1, namespace: SHOP, generatedAt: NOW.toISOString(), included: 1, omitted: 0 });
    expect(file.text).toContain('- You MUST use pnpm.');
    expect(file.text).toContain('in shop');
    expect(statSync(contextFilePath(contextDir, SHOP)).mode & 0o777).toBe(0o600);
    expect(statSync(contextDir).mode & 0o777).toBe(0o700);
    expect(readdirSync(contextDir).filter((n) => n.startsWith('.'))).toEqual([]);
  });

  it('reads each type separately with a limit, so many patterns cannot push rules out', async () => {
    const { deps, store } = setup([]);
    await refreshContext([SHOP], deps);
    const forShop = store.calls.filter((c) => c.namespace === SHOP);
    expect(forShop.map((c) => c.type).sort()).toEqual(['decision', 'golden_rule', 'pattern', 'preference', 'session']);
    expect(forShop.every((c) => c.limit === LIST_LIMIT_PER_TYPE)).toBe(true);
  });

  it('adds global memories to projects, but not global session summaries', async () => {
    const { deps, read } = setup([
      memory(SHOP, 'You MUST use pnpm.', 'golden_rule'),
      memory('global', 'Prefer short commit messages.', 'preference'),
      memory('global', 'A session outside any project.', 'session'),
    ]);
    await refreshContext([SHOP], deps);
    expect(read(SHOP)!.text).toContain('Prefer short commit messages. (all projects)');
    expect(read(SHOP)!.text).not.toContain('outside any project');
  });

  it('leaves global memories out when includeGlobal is off', async () => {
    const { deps, read, store } = setup([memory(SHOP, 'You MUST use pnpm.', 'golden_rule'), memory('global', 'Prefer tabs.', 'preference')], false);
    await refreshContext([SHOP], deps);
    expect(read(SHOP)!.text).not.toContain('Prefer tabs.');
    expect(store.calls.some((c) => c.namespace === 'global')).toBe(false);
  });

  it('writes an empty text for a project with nothing to say', async () => {
    const { deps, read } = setup([]);
    await refreshContext([SHOP], deps);
    expect(read(SHOP)).toMatchObject({ text: '', included: 0, omitted: 0 });
  });

  it('when global memories change, rewrites the global file and every project file on disk', async () => {
    const memories = [memory(SHOP, 'You MUST use pnpm.', 'golden_rule'), memory(API, 'Never log tokens.', 'golden_rule')];
    const { deps, read, store, contextDir } = setup(memories);
    await refreshContext([SHOP, API], deps);
    writeFileSync(join(contextDir, 'stray.json'), 'not json');
    store.memories.push(memory('global', 'Prefer tabs over spaces.', 'preference'));
    store.calls.length = 0;

    await refreshContext(['global'], deps);
    expect(read('global')!.text).toContain('- Prefer tabs over spaces.');
    expect(read(SHOP)!.text).toContain('Prefer tabs over spaces. (all projects)');
    expect(read(API)!.text).toContain('Prefer tabs over spaces. (all projects)');
    expect(read(API)!.text).toContain('Never log tokens.');
    expect(store.calls.filter((c) => c.namespace === 'global' && c.type === 'preference')).toHaveLength(1);
  });

  it('lets a failing store throw, leaving the previous file in place', async () => {
    const { deps, read } = setup([memory(SHOP, 'You MUST use pnpm.', 'golden_rule')]);
    await refreshContext([SHOP], deps);
    const failing = { ...deps, store: { list: () => Promise.reject(new Error('disk gone')) } };
    await expect(refreshContext([SHOP], failing)).rejects.toThrow('disk gone');
    expect(read(SHOP)!.text).toContain('You MUST use pnpm.');
  });
});

describe('refreshContext with a recall serve running', () => {
  /** A daemon rendering with the same code over the same memories, as `recall serve` does with its warm table. */
  async function daemonOver(home: string, store: ListDouble, identity: ServeIdentity) {
    return startFakeDaemon(home, async (request) => {
      const expected = request.expect as ServeIdentity;
      if (expected.embedder !== identity.embedder || expected.store !== identity.store) return { ok: false, reason: 'refused', message: 'another configuration' };
      const rendered = await renderContextTargets(request.targets as ContextTarget[], store, { maxChars: request.maxChars as number, now: new Date(request.now as string) });
      return { ok: true, rendered };
    });
  }

  it('writes what a daemon with the same configuration renders, the same files as without it, and reads nothing itself', async () => {
    const memories = [memory(SHOP, 'You MUST use pnpm.', 'golden_rule'), memory('global', 'Prefer tabs.', 'preference'), memory(SHOP, 'Fixed the build.', 'session')];
    const alone = setup(memories);
    await refreshContext([SHOP, 'global'], alone.deps);

    const served = setup(memories);
    const daemonStore = new ListDouble(memories);
    const daemon = await daemonOver(served.deps.paths.home, daemonStore, serveIdentity(served.deps.config, served.deps.paths.dbDir));
    await refreshContext([SHOP, 'global'], served.deps);
    await daemon.close();

    expect(daemon.requests).toHaveLength(1);
    expect(daemonStore.calls.length).toBeGreaterThan(0);
    expect(served.store.calls).toEqual([]);
    for (const namespace of [SHOP, 'global']) {
      expect(readFileSync(contextFilePath(served.contextDir, namespace), 'utf8')).toBe(readFileSync(contextFilePath(alone.contextDir, namespace), 'utf8'));
    }
  });

  it('renders here when the daemon runs with another embedder', async () => {
    const { deps, read, store } = setup([memory(SHOP, 'You MUST use pnpm.', 'golden_rule')]);
    const daemon = await daemonOver(deps.paths.home, new ListDouble([]), serveIdentity({ ...deps.config, embedder: { ...deps.config.embedder, id: 'hash' } }, deps.paths.dbDir));
    await refreshContext([SHOP], deps);
    await daemon.close();
    expect(daemon.requests).toHaveLength(1);
    expect(store.calls.length).toBeGreaterThan(0);
    expect(read(SHOP)!.text).toContain('You MUST use pnpm.');
  });

  it('renders here when the daemon dies mid-request or answers for other namespaces', async () => {
    for (const reply of ['hang-up', { ok: true, rendered: [{ namespace: API, text: 'x', included: 1, omitted: 0 }] }]) {
      const { deps, read } = setup([memory(SHOP, 'You MUST use pnpm.', 'golden_rule')]);
      const daemon = await startFakeDaemon(deps.paths.home, () => reply);
      await refreshContext([SHOP], deps);
      await daemon.close();
      expect(daemon.requests).toHaveLength(1);
      expect(read(SHOP)!.text).toContain('You MUST use pnpm.');
    }
  });
});

describe('projectNameOf', () => {
  it('takes the folder name out of a project namespace', () => {
    expect(projectNameOf('project:my-api-0123abcd')).toBe('my-api');
    expect(projectNameOf('global')).toBeNull();
  });
});
