/** Approving or forgetting quarantined memories: `recall review approve|forget` and the review page of `recall ui`. */
import { RecallError } from '../core/errors.js';
import type { MemoryRecord } from '../core/memory.js';
import type { MemoryStore } from '../core/ports.js';
import type { StoreParts } from './store-parts.js';
import { QUARANTINED } from './screen-memory.js';

export type ReviewAction = 'approve' | 'forget';

/**
 * Checked under the store lock: only memories that are quarantined now are approved or forgotten;
 * NOT_FOUND (nothing changed) when any id is not. Returns the records as they were.
 */
export async function decideQuarantined(action: ReviewAction, ids: readonly string[], runtime: Pick<StoreParts, 'store' | 'withStoreLock'> & Partial<Pick<StoreParts, 'clock'>>): Promise<MemoryRecord[]> {
  const store = await runtime.store();
  return runtime.withStoreLock(async () => {
    const found = (await store.getMany(ids)).filter((r) => r.status === QUARANTINED);
    const held = new Set(found.map((r) => r.id));
    const missing = ids.filter((id) => !held.has(id));
    if (missing.length > 0) throw new RecallError('NOT_FOUND', `no quarantined memory with id ${missing.join(', ')}; nothing was changed (recall review lists them)`);
    if (action === 'approve') {
      await store.setStatus(ids, null);
      await applyProposals(found, store, runtime.clock?.now() ?? new Date());
    } else {
      await store.delete(ids);
    }
    return found;
  });
}

/**
 * An approved proposed change is applied: the memories it wanted to replace become its older versions
 * (one already replaced or forgotten meanwhile is passed over), and it no longer wants anything.
 */
async function applyProposals(records: readonly MemoryRecord[], store: MemoryStore, at: Date): Promise<void> {
  for (const record of records) {
    const targets = record.wantsToReplace ?? [];
    if (targets.length === 0) continue;
    const current = (await store.getMany(targets)).filter((r) => r.supersededBy == null && r.id !== record.id);
    for (const target of current) await store.supersede(target.id, record.id, at);
    await store.setWantsToReplace(record.id, null);
  }
}
