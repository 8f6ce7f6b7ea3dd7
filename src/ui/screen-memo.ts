/**
 * Why each held memory is held, remembered across requests. The review page lists the reasons of every
 * held memory (its filter counts them), and screening costs about a millisecond a memory on this
 * machine: a store with 1,000 held spent a second on it at each look, and blocked every other page
 * meanwhile. So the reasons are kept per text, source and namespace (all screenMemory depends on), and
 * a list is screened a few memories at a time, letting other requests in between.
 */
import { setImmediate as nextTurn, setTimeout as sleep } from 'node:timers/promises';
import type { MemoryRecord } from '../core/memory.js';
import { screenMemory, type QuarantineReason } from '../store/screen-memory.js';

const MAX_ENTRIES = 50_000;
/** Memories screened between two looks at the event loop (a few ms of work). */
const SLICE = 8;
/** How long background screening waits before looking again whether requests are still being answered. */
const IDLE_WAIT_MS = 20;

export interface ScreenMemo {
  /** The reasons, screened now if not known yet. */
  reasonsOf(record: MemoryRecord): QuarantineReason[];
  /** The reasons if known, else undefined. */
  known(record: MemoryRecord): QuarantineReason[] | undefined;
  /**
   * Screens every one of them not known yet, a slice at a time; with `idle`, in the background: each
   * slice waits until no request is being answered, so the work never slows a page down.
   */
  screenAll(records: readonly MemoryRecord[], idle?: () => boolean): Promise<void>;
}

export function createScreenMemo(): ScreenMemo {
  const reasons = new Map<string, QuarantineReason[]>();
  const keyOf = (r: MemoryRecord) => `${r.source}\u0000${r.namespace}\u0000${r.content}`;
  const known = (r: MemoryRecord) => reasons.get(keyOf(r));
  const reasonsOf = (r: MemoryRecord) => {
    const key = keyOf(r);
    let found = reasons.get(key);
    if (found === undefined) {
      found = screenMemory(r.content, r).reasons;
      if (reasons.size >= MAX_ENTRIES) reasons.delete(reasons.keys().next().value!);
      reasons.set(key, found);
    }
    return found;
  };
  return {
    reasonsOf,
    known,
    async screenAll(records, idle) {
      const todo = records.filter((r) => known(r) === undefined);
      for (let i = 0; i < todo.length; i += SLICE) {
        if (idle !== undefined) while (!idle()) await sleep(IDLE_WAIT_MS);
        for (const r of todo.slice(i, i + SLICE)) reasonsOf(r);
        if (i + SLICE < todo.length) await nextTurn();
      }
    },
  };
}
