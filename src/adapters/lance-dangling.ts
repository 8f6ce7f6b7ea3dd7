/**
 * Memories replaced by a memory that no longer exists: stores written before forgetting relinked
 * version chains (forget-memories.ts) can hold such rows, and a topic whose newest version was deleted
 * then vanished from every read. Found with two cheap reads (the replaced rows' two key columns, then
 * their targets by id) and made current again: every round of upkeep, `recall doctor` (to report) and
 * `recall repair` use them.
 */
import type { Table } from '@lancedb/lancedb';
import { guard, rowsOf, sqlList } from './lance-rows.js';

/** Ids per `IN (...)` filter. */
const PER_STATEMENT = 500;

/** Ids of the memories whose `superseded_by` names no memory of the table. */
export async function findDanglingVersions(t: Table): Promise<string[]> {
  const replaced = rowsOf(await guard('read replaced memories', () => t.query().where('superseded_by IS NOT NULL').select(['id', 'superseded_by']).toArrow()));
  if (replaced.length === 0) return [];
  const targets = [...new Set(replaced.map((r) => String(r.superseded_by)))];
  const existing = new Set<string>();
  for (let i = 0; i < targets.length; i += PER_STATEMENT) {
    const chunk = targets.slice(i, i + PER_STATEMENT);
    const found = rowsOf(await guard('read newer versions', () => t.query().where(`id IN ${sqlList(chunk)}`).select(['id']).toArrow()));
    for (const row of found) existing.add(String(row.id));
  }
  return replaced.filter((r) => !existing.has(String(r.superseded_by))).map((r) => String(r.id));
}

/** Makes every memory replaced by a missing one current again; returns how many. */
export async function relinkDanglingVersions(t: Table): Promise<number> {
  const ids = await findDanglingVersions(t);
  let changed = 0;
  for (let i = 0; i < ids.length; i += PER_STATEMENT) {
    const chunk = ids.slice(i, i + PER_STATEMENT);
    const result = await guard('make versions replaced by a deleted memory current', () =>
      t.update({ where: `id IN ${sqlList(chunk)}`, valuesSql: { superseded_by: 'NULL', superseded_at: 'NULL' } }),
    );
    changed += result.rowsUpdated;
  }
  return changed;
}
