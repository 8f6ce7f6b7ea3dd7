/**
 * `recall endless stats` by source: the PostToolUse hook (its records), and backfill, fork and
 * in-place runs (the savings ledger). The total adds up what the agent was spared: the hook's
 * replacements, and the outputs forks and in-place rewrites replaced. Backfill is shown but not
 * added: its observations save nothing until a fork shows them, and that fork counts them. Pure.
 */
import type { ObservationRecord } from './endless-store.js';
import type { LedgerSource, SavingsEntry } from './savings-ledger.js';

export type Source = 'hook' | LedgerSource;

export interface SourceRow {
  source: Source | 'total';
  /** Backfill, fork and in-place runs that changed something; null for the hook (one record per output). */
  runs: number | null;
  outputs: number;
  originalChars: number;
  /** Characters of what was shown instead (for backfill: of the observations it wrote). */
  shownChars: number;
  savedChars: number;
  savedShare: number;
  /** Fork and in-place: what `claude --resume` loads, before minus after, over all runs. */
  resumeSavedChars: number | null;
  /** Fork and in-place: the whole files' conversation, before minus after. */
  wholeFileSavedChars: number | null;
}

const LEDGER_SOURCES: readonly LedgerSource[] = ['backfill', 'fork', 'in-place'];
/** The sources the total adds up. */
export const COUNTED_IN_TOTAL: ReadonlySet<SourceRow['source']> = new Set<Source>(['hook', 'fork', 'in-place']);

export function summarizeSources(records: readonly ObservationRecord[], entries: readonly SavingsEntry[]): { sources: SourceRow[]; total: SourceRow } {
  const hook = hookRow(records);
  const sources = [hook, ...LEDGER_SOURCES.map((source) => ledgerRow(source, entries.filter((e) => e.source === source)))];
  const counted = sources.filter((row) => COUNTED_IN_TOTAL.has(row.source));
  const total = finish({
    source: 'total' as const,
    runs: null,
    outputs: sum(counted, (r) => r.outputs),
    originalChars: sum(counted, (r) => r.originalChars),
    shownChars: sum(counted, (r) => r.shownChars),
    resumeSavedChars: null,
    wholeFileSavedChars: null,
  });
  return { sources, total };
}

function hookRow(records: readonly ObservationRecord[]): SourceRow {
  const replaced = records.filter((r) => r.answer !== 'none' && r.compressedChars !== null);
  return finish({
    source: 'hook', runs: null, outputs: replaced.length,
    originalChars: sum(replaced, (r) => r.originalChars),
    shownChars: sum(replaced, (r) => r.compressedChars ?? 0),
    resumeSavedChars: null, wholeFileSavedChars: null,
  });
}

function ledgerRow(source: LedgerSource, entries: readonly SavingsEntry[]): SourceRow {
  const measured = source !== 'backfill';
  return finish({
    source, runs: entries.length,
    outputs: sum(entries, (e) => e.outputs),
    originalChars: sum(entries, (e) => e.originalChars),
    shownChars: sum(entries, (e) => e.shownChars),
    resumeSavedChars: measured ? sum(entries, (e) => (e.resume ? e.resume.beforeChars - e.resume.afterChars : 0)) : null,
    wholeFileSavedChars: measured ? sum(entries, (e) => (e.wholeFile ? e.wholeFile.beforeChars - e.wholeFile.afterChars : 0)) : null,
  });
}

function finish<T extends Omit<SourceRow, 'savedChars' | 'savedShare' | 'source'>>(row: T): T & { savedChars: number; savedShare: number } {
  const savedChars = row.originalChars - row.shownChars;
  return { ...row, savedChars, savedShare: row.originalChars > 0 ? savedChars / row.originalChars : 0 };
}

function sum<T>(items: readonly T[], of: (item: T) => number): number {
  return items.reduce((n, item) => n + of(item), 0);
}
