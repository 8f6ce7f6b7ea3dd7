/** Why a memory is held back, in words (`recall review`, `recall ui`). */
import type { MemoryRecord } from '../core/memory.js';
import { REASON_TEXT, screenMemory } from './screen-memory.js';

export function quarantineReasons(record: MemoryRecord): string[] {
  const reasons = screenMemory(record.content, record).reasons.map((reason) => REASON_TEXT[reason]);
  if (record.wantsToReplace != null) reasons.push(proposalText(record.wantsToReplace));
  return reasons;
}

/** A proposed change, in words. */
export function proposalText(ids: readonly string[]): string {
  return `wants to replace ${ids.join(', ')}`;
}
