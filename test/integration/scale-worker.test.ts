/** Scale: the worker looks after the store's indexes once a capture is done, past a configured row count. */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as lancedb from '@lancedb/lancedb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openLanceStore } from '../../src/adapters/lance-store.js';
import { createHashEmbedder } from '../../src/embed/hash-embedder.js';
import { runCli, runHook, waitFor } from '../support/cli.js';
import { startHarness, type Harness } from '../support/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ embedder: 'hash' });
});
afterAll(async () => {
  await h?.close();
});

/** Fills the store the way earlier captures would have: `rows` memories from the hash embedder. */
async function prefill(home: string, rows: number): Promise<void> {
  const embedder = createHashEmbedder();
  const texts = Array.from({ length: rows }, (_, i) => `earlier rule ${i}: prefer option ${(i * 7919) % 997} in module ${(i * 31) % 211}`);
  const vectors = await embedder.embed(texts);
  const store = await openLanceStore(join(home, 'db'));
  await store.insert(
    texts.map((content, i) => ({
      content, type: 'pattern', importance: 0.5, namespace: 'global', projectRoot: null, sessionId: null, source: 'test', vector: vectors[i] as Float32Array,
    })),
    embedder.id,
  );
  await store.close();
}

async function vectorIndexes(home: string): Promise<string[]> {
  const db = await lancedb.connect(join(home, 'db'));
  const table = await db.openTable('memories');
  const found = (await table.listIndices()).filter((index) => index.columns.includes('vector')).map((index) => index.indexType);
  table.close();
  db.close();
  return found;
}

describe('store upkeep by the worker', () => {
  it('builds the vector index after a capture once the store passes RECALL_VECTOR_INDEX_MIN_ROWS', async () => {
    const home = join(h.root, 'upkeep');
    const env = { ...h.env, RECALL_HOME: home, RECALL_HOOK_SPAWN: '0', RECALL_VECTOR_INDEX_MIN_ROWS: '300', RECALL_OPTIMIZE_EVERY_VERSIONS: '2' };
    await prefill(home, 400);
    expect(await vectorIndexes(home)).toEqual([]);

    const project = h.project('upkeep');
    const hook = await runHook('session-end', { session_id: 'upkeep-1', transcript_path: h.session('upkeep-1', ['You MUST use pnpm, never npm.']), cwd: project }, { env });
    expect(hook.exitCode).toBe(0);
    const drained = await runCli(['drain', '--json'], { env });
    expect(JSON.parse(drained.stdout)).toMatchObject({ done: 1, failed: 0 });

    // Upkeep runs detached, in a process of its own: wait for its report in the log.
    const line = await waitFor(() => {
      const log = existsSync(join(home, 'recall.log')) ? readFileSync(join(home, 'recall.log'), 'utf8') : '';
      return log.split('\n').find((l) => l.includes('"store maintained"'));
    });
    expect(JSON.parse(line)).toMatchObject({ component: 'maintain', vectorIndex: 'built', idIndex: true, optimized: true, rows: 401 });
    expect(await vectorIndexes(home)).toEqual(['IvfRq']);

    // Searches keep working through the index, and the new memory is found.
    const search = await runCli(['search', 'pnpm', '--json', '--mode', 'vector'], { env });
    expect(search.exitCode).toBe(0);
    expect(search.stdout).toContain('pnpm');
  });

  it('leaves a store below the threshold without a vector index', async () => {
    const home = join(h.root, 'small');
    const env = { ...h.env, RECALL_HOME: home, RECALL_HOOK_SPAWN: '0' };
    await prefill(home, 300);
    const project = h.project('small');
    await runHook('session-end', { session_id: 'small-1', transcript_path: h.session('small-1', ['Always run integration tests before a release.']), cwd: project }, { env });
    expect(JSON.parse((await runCli(['drain', '--json'], { env })).stdout)).toMatchObject({ done: 1 });
    expect(await vectorIndexes(home)).toEqual([]);
    expect(readFileSync(join(home, 'recall.log'), 'utf8')).not.toContain('store maintenance started');
  });
});
