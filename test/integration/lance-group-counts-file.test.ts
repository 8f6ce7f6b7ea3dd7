/**
 * The group counts kept in the state dir (group-counts-file.ts): a fresh store over an unchanged table
 * reads them instead of the rows, and any write by another connection (another process) makes the
 * next reader count again.
 */
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openLanceStore, type LanceStore } from '../../src/adapters/lance-store.js';
import type { GroupCount, NewMemory } from '../../src/core/ports.js';
import { useLanceStores } from '../support/lance-stores.js';

const EMBEDDER = 'test:axes';
const NS = 'project:app-0000aaaa';
const stores = useLanceStores('recall-group-counts-');

function memory(content: string, over: Partial<NewMemory> = {}): NewMemory {
  const vector = new Float32Array(8);
  vector[content.length % 8] = 1;
  return { content, vector, type: 'preference', importance: 0.7, namespace: NS, projectRoot: '/work/app', sessionId: 's1', source: 'claude', ...over };
}

const file = () => join(stores.dir(), 'group-counts.json');
const open = (): Promise<LanceStore> => openLanceStore(join(stores.dir(), 'db'), { groupCountsFile: file() });

/** Rewrites the kept counts, stamp untouched: a reader that returns these read the file, not the rows. */
function tamper(counts: GroupCount[], stamp: (s: Record<string, unknown>) => Record<string, unknown> = (s) => s): void {
  const kept = JSON.parse(readFileSync(file(), 'utf8')) as { stamp: Record<string, unknown> };
  writeFileSync(file(), JSON.stringify({ ...kept, stamp: stamp(kept.stamp), counts }));
}

const FAKE = [{ namespace: NS, type: 'preference', count: 999 }];

describe('group counts kept in the state dir', () => {
  it('keeps them in a private file that a fresh store over the same table reads instead of the rows', async () => {
    const writer = await open();
    await writer.insert([memory('a'), memory('bb', { type: 'decision' }), memory('ccc', { namespace: 'global' })], EMBEDDER);
    const counted = await writer.countByNamespaceAndType();
    expect(counted).toEqual([
      { namespace: 'global', type: 'preference', count: 1 },
      { namespace: NS, type: 'decision', count: 1 },
      { namespace: NS, type: 'preference', count: 1 },
    ]);
    expect(statSync(file()).mode & 0o777).toBe(0o600);
    tamper(FAKE);
    const reader = await open();
    expect(await reader.countByNamespaceAndType()).toEqual(FAKE);
    await Promise.all([writer.close(), reader.close()]);
  });

  it.each([
    ['an insert', (s: LanceStore) => s.insert([memory('dddd')], EMBEDDER), 2],
    ['a delete', async (s: LanceStore) => void (await s.delete([(await s.list({ limit: 1 }))[0]!.id])), 0],
    ['a status change', async (s: LanceStore) => void (await s.setStatus([(await s.list({ limit: 1 }))[0]!.id], 'quarantined')), 1],
  ])('counts again after %s by another connection', async (_, write, preferences) => {
    const first = await open();
    await first.insert([memory('a')], EMBEDDER);
    await first.countByNamespaceAndType();
    tamper(FAKE);
    const other = await open();
    await write(other);
    await other.close();
    const reader = await open();
    const counts = await reader.countByNamespaceAndType();
    expect(counts.find((g) => g.namespace === NS && g.type === 'preference')?.count ?? 0).toBe(preferences);
    // The fresh counts are the ones kept now.
    expect((JSON.parse(readFileSync(file(), 'utf8')) as { counts: GroupCount[] }).counts).toEqual(counts);
    await Promise.all([first.close(), reader.close()]);
  });

  it('counts again when the kept counts are stamped with another commit time, another store or nonsense', async () => {
    const writer = await open();
    await writer.insert([memory('a')], EMBEDDER);
    await writer.countByNamespaceAndType();
    const truth = [{ namespace: NS, type: 'preference', count: 1 }];
    for (const stamp of [(s: Record<string, unknown>) => ({ ...s, committedAt: '2001-01-01T00:00:00.000Z' }), (s: Record<string, unknown>) => ({ ...s, store: '/elsewhere' })]) {
      tamper(FAKE, stamp);
      const reader = await open();
      expect(await reader.countByNamespaceAndType()).toEqual(truth);
      await reader.close();
    }
    writeFileSync(file(), '{"format":1,"stamp":');
    const reader = await open();
    expect(await reader.countByNamespaceAndType()).toEqual(truth);
    await Promise.all([writer.close(), reader.close()]);
  });
});
