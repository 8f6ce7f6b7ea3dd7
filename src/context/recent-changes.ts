/**
 * The changes a session should hear about: memories replaced within the last `days` days whose newer
 * version is current and shown, as "now X, was Y, since <date>" pairs.
 */
import type { MemoryRecord } from '../core/memory.js';
import type { MemoryStore } from '../core/ports.js';

export interface RecentChange {
  now: MemoryRecord;
  was: MemoryRecord;
  /** When the change was made (ISO time). */
  at: string;
}

/** More changes than a context shows. */
const CHANGES_READ = 50;
const DAY_MS = 86_400_000;

export async function readRecentChanges(
  store: Pick<MemoryStore, 'list'>,
  namespaces: readonly string[],
  current: readonly MemoryRecord[],
  options: { now: Date; days: number },
): Promise<RecentChange[]> {
  if (options.days <= 0 || namespaces.length === 0) return [];
  const since = new Date(options.now.getTime() - options.days * DAY_MS);
  const replaced = await store.list({ namespaces, supersededSince: since, quarantine: 'exclude', limit: CHANGES_READ });
  const byId = new Map(current.map((m) => [m.id, m]));
  const changes: RecentChange[] = [];
  for (const was of replaced) {
    const now = byId.get(was.supersededBy ?? '');
    if (now !== undefined && was.supersededAt != null) changes.push({ now, was, at: was.supersededAt });
  }
  return changes.sort((a, b) => b.at.localeCompare(a.at));
}
