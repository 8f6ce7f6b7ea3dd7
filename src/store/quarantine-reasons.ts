/** Why the screen held a memory back, in words (`recall review`, `recall ui`). */
import type { MemoryRecord } from '../core/memory.js';
import { REASON_TEXT, screenMemory } from './screen-memory.js';

export function quarantineReasons(record: MemoryRecord): string[] {
  return screenMemory(record.content, record).reasons.map((reason) => REASON_TEXT[reason]);
}
