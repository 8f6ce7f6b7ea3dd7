/**
 * Stores written before forgetting relinked version chains can hold memories replaced by a memory that
 * no longer exists: they showed nowhere. Upkeep, `recall doctor` and `recall repair` make them current
 * again. Real LanceDB in a temp dir; the CLI as a subprocess.
 */
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openLanceStore } from '../../src/adapters/lance-store.js';
import type { MemoryOrigin } from '../../src/core/memory.js';
import { createHashEmbedder } from '../../src/embed/hash-embedder.js';
import { storeMemories } from '../../src/store/store-memories.js';
import { runCli } from '../support/cli.js';
import { startHarness, type Harness } from '../support/harness.js';
import { manualClock, useLanceStores } from '../support/lance-stores.js';

const stores = useLanceStores('recall-dangling-');
const embedder = createHashEmbedder();
const origin: MemoryOrigin = { namespace: 'global', projectRoot: null, sessionId: null, source: 'manual' };
const policy = { vectorIndexMinRows: 1_000_000, optimizeEveryVersions: 1_000_000 };

/** Node 18 -> 20 -> 22, then 22 deleted the way forgetting did before it relinked chains. */
async function chainWithDeletedHead() {
  const clock = manualClock();
  const store = await stores.openStore(clock);
  const deps = { embedder, store, threshold: 0.85, clock };
  const ids: string[] = [];
  for (const version of ['18', '20', '22']) {
    clock.advance(60_000);
    const stored = await storeMemories([{ content: `Use Node ${version} for the API server.`, type: 'decision', importance: 0.8 }], origin, deps);
    ids.push(stored.inserted[0]!.id);
  }
  const [n18, n20, n22] = ids as [string, string, string];
  expect(await store.get(n20)).toMatchObject({ supersededBy: n22 });
  expect(await store.delete([n22])).toBe(1);
  return { store, n18, n20 };
}

describe('memories replaced by a memory that no longer exists', () => {
  it('are found, and a round of upkeep makes them current again (once)', async () => {
    const { store, n18, n20 } = await chainWithDeletedHead();
    expect((await store.list({})).map((r) => r.id)).toEqual([]);
    expect(await store.danglingVersions()).toEqual([n20]);

    const report = await store.maintain(policy);
    expect(report.danglingRelinked).toBe(1);
    expect((await store.list({})).map((r) => r.id)).toEqual([n20]);
    // The older link in the chain is whole and stays: 18 is still history of 20.
    expect(await store.get(n18)).toMatchObject({ supersededBy: n20 });
    expect(await store.get(n20)).toMatchObject({ supersededBy: null, supersededAt: null });
    expect(await store.danglingVersions()).toEqual([]);
    expect((await store.maintain(policy)).danglingRelinked).toBe(0);
  });

  it('a store without such memories has none to relink', async () => {
    const clock = manualClock();
    const store = await stores.openStore(clock);
    await storeMemories([{ content: 'Use pnpm for installs.', type: 'decision', importance: 0.8 }], origin, { embedder, store, threshold: 0.85, clock });
    expect(await store.danglingVersions()).toEqual([]);
    expect(await store.relinkDanglingVersions()).toBe(0);
  });
});

describe('recall doctor and recall repair on a store with such memories', () => {
  let h: Harness;
  let env: NodeJS.ProcessEnv;
  beforeEach(async () => {
    h = await startHarness({ embedder: 'hash' });
    env = { ...h.env, RECALL_HOOK_SPAWN: 'false' };
  });
  afterEach(() => h.close());

  it('doctor names them with the way out; repair --dry-run changes nothing; repair makes them current again', async () => {
    for (const text of ['Use Node 18 for the API server.', 'Use Node 20 for the API server.']) {
      expect((await runCli(['add', text, '--namespace', 'global'], { env })).exitCode).toBe(0);
    }
    const listed = async () => (JSON.parse((await runCli(['list', '--json', '--namespace', 'global'], { env })).stdout) as { content: string }[]).map((m) => m.content);
    expect(await listed()).toEqual(['Use Node 20 for the API server.']);
    const store = await openLanceStore(join(h.home, 'db'));
    const head = (await store.list({}))[0]!;
    await store.delete([head.id]);
    await store.close();
    expect(await listed()).toEqual([]);

    const doctor = await runCli(['doctor', '--json'], { env });
    const check = (JSON.parse(doctor.stdout) as { checks: Array<{ id: string; status: string; detail: string; fix?: string }> }).checks.find((c) => c.id === 'store');
    expect(check).toMatchObject({ status: 'warn', fix: expect.stringContaining('recall repair') });
    expect(check?.detail).toContain('1 is marked as replaced by a memory that no longer exists');

    const dry = await runCli(['repair', '--dry-run', '--json'], { env });
    expect(dry.exitCode, dry.stderr).toBe(0);
    expect(JSON.parse(dry.stdout)).toMatchObject({ dryRun: true, data: { danglingRelinked: 1 } });
    expect(await listed()).toEqual([]);

    const repaired = await runCli(['repair'], { env });
    expect(repaired.exitCode, repaired.stderr).toBe(0);
    expect(repaired.stdout).toContain('1 memory was marked as replaced by a memory that no longer exists and is current again');
    expect(await listed()).toEqual(['Use Node 18 for the API server.']);
    expect((await runCli(['repair', '--json'], { env })).stdout).toContain('"danglingRelinked": 0');
  });
});
