/**
 * `recall serve`'s store in a child process (src/app/hosted-store.ts), with real LanceDB in a temp dir and
 * real host processes (the built dist/app/store-host-child.js): searching writes nothing to the table, and
 * a host past its thread cap is replaced while every call is answered, a scan in flight included.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openLanceStore } from '../../src/adapters/lance-store.js';
import { createHashEmbedder } from '../../src/embed/hash-embedder.js';
import { searchMemories } from '../../src/search/search-memories.js';
import type { NewMemory } from '../../src/core/ports.js';
import { useTempDirs } from '../support/temp-dir.js';
import type * as HostedStoreModule from '../../src/app/hosted-store.js';
import type * as ServeClient from '../../src/serve-client/serve-client.js';
import { runCli } from '../support/cli.js';
import { startHarness } from '../support/harness.js';

type HostedModule = typeof HostedStoreModule;
// The host process runs the built child entry, so the parent side is the built one too.
const hosted = (): Promise<HostedModule> => import(new URL('../../dist/app/hosted-store.js', import.meta.url).href) as Promise<HostedModule>;

const tempDir = useTempDirs();
const embedder = createHashEmbedder();
const NS = 'project:app-0000aaaa';
const TOPICS = ['pnpm workspaces', 'bigint money columns', 'retry on connection reset', 'tabs not spaces', 'feature flags in config', 'log levels in production'];

async function memories(count: number): Promise<NewMemory[]> {
  const texts = Array.from({ length: count }, (_, i) => `Rule ${i}: ${TOPICS[i % TOPICS.length]} must be followed in module ${i}.`);
  const vectors = await embedder.embed(texts);
  return texts.map((content, i) => ({ content, vector: vectors[i]!, type: 'preference', importance: 0.7, namespace: NS, projectRoot: null, sessionId: null, source: 'test' }));
}

/** Every file under the table's folder, with its folder. */
function tableFiles(dir: string): string[] {
  return readdirSync(join(dir, 'memories.lance'), { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name)).sort();
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Polls until `check` holds, at most `tries` times (a condition, not a wall-clock limit). */
async function until(check: () => boolean, tries = 2_000): Promise<void> {
  for (let i = 0; i < tries && !check(); i += 1) await new Promise((resolve) => setTimeout(resolve, 10));
}

describe('searching the store', () => {
  it('writes nothing: no new table version and no new file after many hybrid searches, lists and counts', async () => {
    const dir = tempDir();
    const store = await openLanceStore(dir, { longLived: true });
    await store.insert(await memories(60), embedder.id);
    const version = await store.dataVersion!();
    const files = tableFiles(dir);
    for (let i = 0; i < 40; i += 1) {
      const hits = await searchMemories({ query: `${TOPICS[i % TOPICS.length]} rule`, mode: 'hybrid', filters: i % 2 === 0 ? { namespace: NS } : {}, limit: 5, minScore: 0 }, { store, embedder: async () => embedder });
      expect(hits.length).toBeGreaterThan(0);
      await store.list({ limit: 10 });
      await store.countByNamespaceAndType();
      await store.warmTextIndex();
    }
    expect(await store.dataVersion!()).toBe(version);
    expect(tableFiles(dir)).toEqual(files);
    await store.close();
  });
});

describe("recall serve's store host", () => {
  it('is replaced past its thread cap while every call is answered, the same as before, and the old host exits', async () => {
    const dir = tempDir();
    const swapped: Array<[number, number]> = [];
    const { openHostedStore } = await hosted();
    const store = await openHostedStore({ kind: 'local', uri: dir }, { threadCap: 1, warm: (s) => s.warmTextIndex(), onSwap: (pid, old) => swapped.push([pid, old]) });
    await store.insert(await memories(30), embedder.id);
    const [query] = await embedder.embed(['pnpm workspaces rule']);
    const expected = (await store.search(query!, { limit: 5 })).map((m) => m.id);
    const first = store.hostPid();
    for (let i = 0; i < 5_000 && swapped.length < 2; i += 1) {
      expect((await store.search(query!, { limit: 5 })).map((m) => m.id)).toEqual(expected);
      expect((await store.textSearch('bigint', { limit: 3 })).length).toBeGreaterThan(0);
    }
    expect(swapped.length).toBeGreaterThanOrEqual(2);
    expect(store.swaps()).toBe(swapped.length);
    expect(store.hostPid()).not.toBe(first);
    expect(swapped[0]![1]).toBe(first);
    const retired = swapped.map(([, old]) => old);
    await until(() => retired.every((pid) => !alive(pid)));
    expect(retired.filter(alive)).toEqual([]);
    // Writes go on through the new host.
    await store.insert(await memories(1), embedder.id);
    expect(await store.count()).toBe(31);
    const last = store.hostPid()!;
    await store.close();
    await until(() => !alive(last));
    expect(alive(last)).toBe(false);
  });

  it('lets a scan started before a swap read every row from its own host, then closes that host', async () => {
    const dir = tempDir();
    const { openHostedStore } = await hosted();
    const store = await openHostedStore({ kind: 'local', uri: dir }, { threadCap: 1 });
    await store.insert(await memories(12), embedder.id);
    const first = store.hostPid()!;
    const scan = store.scan({ batchSize: 2 })[Symbol.asyncIterator]();
    const rows = [...((await scan.next()).value as unknown[])];
    for (let i = 0; i < 5_000 && store.swaps() === 0; i += 1) await store.count();
    expect(store.swaps()).toBeGreaterThan(0);
    expect(alive(first)).toBe(true);
    for (let step = await scan.next(); step.done !== true; step = await scan.next()) rows.push(...step.value);
    expect(rows).toHaveLength(12);
    await until(() => !alive(first));
    expect(alive(first)).toBe(false);
    await store.close();
  });

  it('starts a new host on the next call when its host died', async () => {
    const { openHostedStore } = await hosted();
    const store = await openHostedStore({ kind: 'local', uri: tempDir() }, { threadCap: 1_000 });
    await store.insert(await memories(3), embedder.id);
    const first = store.hostPid()!;
    process.kill(first, 'SIGKILL');
    await until(() => store.hostPid() === null);
    expect(await store.count()).toBe(3);
    expect(store.hostPid()).not.toBe(first);
    await store.close();
  });

  it('passes on the store errors by their code', async () => {
    const { openHostedStore } = await hosted();
    const store = await openHostedStore({ kind: 'local', uri: tempDir() }, { threadCap: 1_000 });
    await store.insert(await memories(2), embedder.id);
    const err = await store.edit('no-such-id', { content: 'x', type: 'preference', importance: 0.5, vector: (await embedder.embed(['x']))[0]! }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'NOT_FOUND' });
    await store.close();
  });
});

describe('recall serve with a store host', () => {
  it('keeps answering searches while it replaces its store host, and its hosts are its children', async () => {
    const h = await startHarness({ embedder: 'hash' });
    const env = { ...h.env, RECALL_HOME: join(h.root, 'host-home'), RECALL_SERVE_STORE_HOST_THREADS: '1' };
    try {
      for (const text of ['You MUST use pnpm, never npm.', 'Store money as integer cents in a bigint column.']) await runCli(['add', text, '--type', 'decision'], { env });
      expect((await runCli(['serve', '--detach'], { env })).exitCode).toBe(0);
      const { requestDaemon, pingDaemon, serveSocketPath } = (await import(new URL('../../dist/serve-client/serve-client.js', import.meta.url).href)) as typeof ServeClient;
      const socket = serveSocketPath(env.RECALL_HOME);
      const pid = (await pingDaemon(socket, 10_000))!.pid;
      const hosts = new Set<string>();
      for (let i = 0; i < 2_000 && hosts.size < 3; i += 1) {
        const answer = await requestDaemon(socket, { v: 1, argv: ['search', i % 2 === 0 ? 'pnpm' : 'bigint money', '--json'], cwd: h.root, columns: null, isTTY: false, noColor: true });
        expect(answer).toMatchObject({ exitCode: 0 });
        expect(JSON.parse((answer as { stdout: string }).stdout)[0].content).toMatch(i % 2 === 0 ? /pnpm/ : /bigint/);
        hosts.add(readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim());
      }
      expect(hosts.size).toBeGreaterThanOrEqual(3);
    } finally {
      await runCli(['serve', '--stop'], { env });
      await h.close();
    }
  }, 120_000);
});
