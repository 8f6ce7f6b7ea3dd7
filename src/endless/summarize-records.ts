/** `recall endless stats`: what Endless Mode replaced and saved, per session and overall. Pure. */
import type { ObservationRecord } from './endless-store.js';

export interface SavingsRow {
  sessionId: string;
  outputs: number;
  /** Outputs the agent saw an observation for, or the reduction. */
  observations: number;
  reductions: number;
  /** Outputs saved but left whole (the replacement would not have shrunk them enough). */
  untouched: number;
  /** Outputs still without a stored observation. */
  pending: number;
  /** Characters of the replaced outputs, and of what replaced them. */
  originalChars: number;
  compressedChars: number;
  savedChars: number;
  savedShare: number;
}

export function summarizeRecords(records: readonly ObservationRecord[]): { sessions: SavingsRow[]; total: SavingsRow } {
  const bySession = new Map<string, ObservationRecord[]>();
  for (const record of records) bySession.set(record.sessionId, [...(bySession.get(record.sessionId) ?? []), record]);
  const sessions = [...bySession.entries()].map(([id, list]) => summarizeOne(id, list));
  sessions.sort((a, b) => b.savedChars - a.savedChars || a.sessionId.localeCompare(b.sessionId));
  return { sessions, total: summarizeOne('(all)', records) };
}

function summarizeOne(sessionId: string, records: readonly ObservationRecord[]): SavingsRow {
  const row: SavingsRow = { sessionId, outputs: records.length, observations: 0, reductions: 0, untouched: 0, pending: 0, originalChars: 0, compressedChars: 0, savedChars: 0, savedShare: 0 };
  for (const record of records) {
    if (record.observation === null) row.pending += 1;
    if (record.answer === 'none' || record.compressedChars === null) {
      row.untouched += 1;
      continue;
    }
    if (record.answer === 'observation') row.observations += 1;
    else row.reductions += 1;
    row.originalChars += record.originalChars;
    row.compressedChars += record.compressedChars;
  }
  row.savedChars = row.originalChars - row.compressedChars;
  row.savedShare = row.originalChars > 0 ? row.savedChars / row.originalChars : 0;
  return row;
}
