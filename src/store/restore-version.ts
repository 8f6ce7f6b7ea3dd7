/**
 * `recall restore <id>`: an older version becomes current again. The versions that replaced it are kept
 * as history, now replaced by it, so the change is recorded and can itself be undone. Run under the
 * store lock.
 */
import { RecallError } from '../core/errors.js';
import type { MemoryRecord } from '../core/memory.js';
import type { MemoryStore } from '../core/ports.js';
import { readVersionChain } from './version-chain.js';

export interface RestoreResult {
  restored: MemoryRecord;
  /** The versions that were current and are now replaced by the restored one. */
  replaced: string[];
}

export async function restoreVersion(id: string, store: Pick<MemoryStore, 'get' | 'list' | 'relink'>, at: Date): Promise<RestoreResult> {
  const record = await store.get(id);
  if (record === null) throw new RecallError('NOT_FOUND', `no memory with id ${id}`);
  if (record.supersededBy == null) throw new RecallError('INPUT_INVALID', `memory ${id} is already current; recall show ${id} lists its versions`);
  const { newer } = await readVersionChain(store, record);
  const current = newer.filter((r) => r.supersededBy == null).map((r) => r.id);
  await store.relink([id], null, at);
  if (current.length > 0) await store.relink(current, id, at);
  return { restored: { ...record, supersededBy: null, supersededAt: null }, replaced: current };
}
