/**
 * Forgetting memories without breaking their version chains: a forgotten memory's older versions are
 * linked to its newer version, or, when it was the current one, the newest of them becomes current
 * again (forgetting Node 22 in 18 -> 20 -> 22 brings back 20). No memory is left replaced by an id that
 * no longer exists. `wholeChain` forgets every version of each memory instead. Run under the store lock.
 */
import type { MemoryRecord } from '../core/memory.js';
import type { MemoryStore } from '../core/ports.js';
import { readVersionChain } from './version-chain.js';

/** More older versions than any chain holds; a store edited by hand is cut here. */
const MAX_OLDER = 500;

export interface ForgetResult {
  forgotten: MemoryRecord[];
  /** Older versions made current again. */
  current: string[];
  /** Each older version whose link the forget changed: what it was replaced by before, and what now (null: current). */
  relinked: Relinked[];
}

export interface Relinked {
  id: string;
  was: { supersededBy: string; supersededAt: string | null };
  now: string | null;
}

export async function forgetMemories(
  records: readonly MemoryRecord[],
  store: Pick<MemoryStore, 'get' | 'getMany' | 'list' | 'relink' | 'delete'>,
  at: Date,
  options: { wholeChain?: boolean } = {},
): Promise<ForgetResult> {
  const doomed = new Map(records.map((r) => [r.id, r]));
  if (options.wholeChain === true) {
    for (const record of records) {
      const chain = await readVersionChain(store, record);
      for (const r of [...chain.older, ...chain.newer]) doomed.set(r.id, r);
    }
  }
  const current: string[] = [];
  const relinked: Relinked[] = [];
  for (const record of doomed.values()) {
    const older = (await store.list({ supersededBy: record.id, limit: MAX_OLDER })).filter((r) => !doomed.has(r.id));
    if (older.length === 0) continue;
    const successor = await survivingSuccessor(record, doomed, store);
    await store.relink(older.map((r) => r.id), successor, at);
    if (successor === null) current.push(...older.map((r) => r.id));
    for (const r of older) relinked.push({ id: r.id, was: { supersededBy: record.id, supersededAt: r.supersededAt ?? null }, now: successor });
  }
  await store.delete([...doomed.keys()]);
  return { forgotten: [...doomed.values()], current, relinked };
}

/**
 * Undoes the relinks of a forget once its memories are back: each older version is replaced again by
 * the memory it was replaced by before (at the same time), unless it was linked elsewhere since.
 * Returns how many were put back.
 */
export async function undoRelinks(relinked: readonly Relinked[], store: Pick<MemoryStore, 'getMany' | 'relink'>, at: Date): Promise<number> {
  if (relinked.length === 0) return 0;
  const rows = new Map((await store.getMany(relinked.map((r) => r.id))).map((r) => [r.id, r]));
  let back = 0;
  for (const r of relinked) {
    const row = rows.get(r.id);
    if (row === undefined || (row.supersededBy ?? null) !== r.now) continue;
    back += await store.relink([r.id], r.was.supersededBy, r.was.supersededAt === null ? at : new Date(r.was.supersededAt));
  }
  return back;
}

/** The nearest newer version that is not being forgotten, or null when there is none. */
async function survivingSuccessor(record: MemoryRecord, doomed: ReadonlyMap<string, MemoryRecord>, store: Pick<MemoryStore, 'get'>): Promise<string | null> {
  const seen = new Set([record.id]);
  let next = record.supersededBy ?? null;
  while (next !== null && !seen.has(next)) {
    seen.add(next);
    const found = doomed.get(next) ?? (await store.get(next));
    if (found === null) return null;
    if (!doomed.has(next)) return next;
    next = found.supersededBy ?? null;
  }
  return null;
}
