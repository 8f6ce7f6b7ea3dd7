/** Real LanceDB stores in a fresh temp dir per test, closed and removed afterwards. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import { openLanceStore, type LanceStore } from '../../src/adapters/lance-store.js';
import type { Clock, MemoryStore } from '../../src/core/ports.js';

/** A clock the test moves by hand. */
export function manualClock(start = '2024-05-01T10:00:00.000Z'): Clock & { advance(ms: number): void } {
  let t = Date.parse(start);
  return { now: () => new Date(t), advance: (ms) => { t += ms; } };
}

export function useLanceStores(prefix: string): { dir(): string; openStore(clock?: Clock): Promise<LanceStore> } {
  let dir = '';
  let open: LanceStore[] = [];
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), prefix));
    open = [];
  });
  afterEach(async () => {
    for (const store of open) await store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return {
    dir: () => dir,
    async openStore(clock: Clock = manualClock()) {
      const store = await openLanceStore(dir, { clock });
      open.push(store);
      return store;
    },
  };
}

/** The contents of search matches, in their order: a search answers with ids, read here as a caller would. */
export async function contentsOf(store: Pick<MemoryStore, 'getMany'>, matches: ReadonlyArray<{ id: string }>): Promise<string[]> {
  const byId = new Map((await store.getMany(matches.map((m) => m.id))).map((r) => [r.id, r.content]));
  return matches.map((m) => byId.get(m.id) ?? `(no memory ${m.id})`);
}
