/** One line per finished capture, for `recall status` and for audits: which session became what. */
import { readFileSync } from 'node:fs';
import { appendPrivateFile } from '../core/private-paths.js';

export interface HistoryEntry {
  job: string;
  sessionId: string | null;
  transcriptPath: string;
  namespace: string;
  status: 'stored' | 'skipped';
  inserted: number;
  reinforced: number;
  /** Stored memories the capture replaced (changed decisions); absent in lines written before it was recorded. */
  superseded?: number;
  /** Of the stored memories, how many were held for review; absent in lines written before it was recorded. */
  quarantined?: number;
  ms: number;
  at: string;
}

export function appendHistory(file: string, entry: HistoryEntry): void {
  appendPrivateFile(file, `${JSON.stringify(entry)}\n`);
}

/** Entries in order; damaged lines are skipped. */
export function readHistory(file: string): HistoryEntry[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return [];
  }
  const entries: HistoryEntry[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    try {
      entries.push(JSON.parse(line) as HistoryEntry);
    } catch {
      // A line cut by a crash: ignore it.
    }
  }
  return entries;
}
