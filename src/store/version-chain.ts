/** The versions of one memory: the ones it replaced (older) and the ones that replaced it (newer). */
import type { MemoryRecord } from '../core/memory.js';
import type { MemoryStore } from '../core/ports.js';

/** A chain longer than this is cut (a store edited by hand could hold a loop). */
const MAX_VERSIONS = 100;

export interface VersionChain {
  /** Oldest first; each was replaced by the next (the last by the memory itself). */
  older: MemoryRecord[];
  /** Oldest first: the memory that replaced it, then the one that replaced that, up to the current one. */
  newer: MemoryRecord[];
}

export async function readVersionChain(store: Pick<MemoryStore, 'get' | 'list'>, record: MemoryRecord): Promise<VersionChain> {
  const seen = new Set([record.id]);
  const newer: MemoryRecord[] = [];
  let next = record.supersededBy ?? null;
  while (next !== null && !seen.has(next) && newer.length < MAX_VERSIONS) {
    seen.add(next);
    const found = await store.get(next);
    if (found === null) break;
    newer.push(found);
    next = found.supersededBy ?? null;
  }
  const older: MemoryRecord[] = [];
  let frontier = [record.id];
  while (frontier.length > 0 && older.length < MAX_VERSIONS) {
    const replaced: MemoryRecord[] = [];
    for (const id of frontier) replaced.push(...(await store.list({ supersededBy: id, limit: MAX_VERSIONS })));
    const fresh = replaced.filter((r) => !seen.has(r.id));
    for (const r of fresh) seen.add(r.id);
    older.unshift(...fresh.sort((a, b) => b.createdAt.localeCompare(a.createdAt)).reverse());
    frontier = fresh.map((r) => r.id);
  }
  return { older, newer };
}
