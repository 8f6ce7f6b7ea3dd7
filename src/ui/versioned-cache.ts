/**
 * What a page computed from the rows, kept while the table is the same: the store's data version (any
 * process's commit changes it) and its row count must both match. The page then answers a second look
 * from memory instead of reading thousands of rows again; a capture, an import or a change here makes
 * it read them anew.
 */
import type { MemoryStore } from '../core/ports.js';

export type Cached = <T>(key: string, compute: () => Promise<T>) => Promise<T>;

const MAX_ENTRIES = 64;

export function createVersionedCache(store: () => Promise<MemoryStore>): Cached {
  let stamp: string | null = null;
  const values = new Map<string, Promise<unknown>>();
  return async <T>(key: string, compute: () => Promise<T>): Promise<T> => {
    const s = await store();
    if (s.dataVersion === undefined) return compute();
    const [version, rows] = await Promise.all([s.dataVersion(), s.count()]);
    const now = `${version}:${rows}`;
    if (now !== stamp) {
      values.clear();
      stamp = now;
    }
    let hit = values.get(key) as Promise<T> | undefined;
    if (hit === undefined) {
      hit = compute();
      values.set(key, hit);
      hit.catch(() => values.delete(key));
      if (values.size > MAX_ENTRIES) values.delete(values.keys().next().value!);
    }
    return hit;
  };
}
