/**
 * What backfill and fork did, kept beside the hook's records so `recall endless stats` can count
 * every source: RECALL_HOME/endless/savings/<time>-<source>-<random>.json, one file per run that
 * changed something, written whole (temp file + rename, 0600 in a 0700 folder). The hook needs no
 * entry here: each of its records already says what the agent was shown. Node built-ins only.
 */
import { randomBytes } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describeError } from '../core/errors.js';
import { isObject } from '../core/is-object.js';
import type { Logger } from '../core/log.js';
import { firstBadField } from '../core/read-json-object.js';
import { ensureDir, writeFileAtomic } from '../core/atomic-write.js';
import { endlessRoot, readJsonObjectFile } from './endless-store.js';

export type LedgerSource = 'backfill' | 'fork' | 'in-place';

export interface SavingsEntry {
  version: 1;
  source: LedgerSource;
  sessionId: string;
  /** The fork's new session; null for backfill and in-place. */
  newSessionId: string | null;
  at: string;
  /**
   * Outputs (and shortened file-writing inputs) replaced, their characters and those of what
   * replaced them. Backfill replaces nothing itself: its figures are the observations it wrote,
   * ready for a fork to use.
   */
  outputs: number;
  originalChars: number;
  shownChars: number;
  /** Fork and in-place: the conversation `claude --resume` loads, and the whole file's, before and after. */
  resume: { beforeChars: number; afterChars: number } | null;
  wholeFile: { beforeChars: number; afterChars: number } | null;
}

export function savingsDir(home: string): string {
  return join(endlessRoot(home), 'savings');
}

/** Notes one run; a failure to write is logged, never thrown: the run itself has already succeeded. */
export function recordSavings(home: string, entry: SavingsEntry, logger: Logger): void {
  try {
    const dir = savingsDir(home);
    ensureDir(dir);
    const stamp = entry.at.replace(/[:.]/g, '-');
    writeFileAtomic(join(dir, `${stamp}-${entry.source}-${randomBytes(4).toString('hex')}.json`), `${JSON.stringify(entry, null, 2)}\n`);
  } catch (err) {
    logger.log('warn', `could not note what ${entry.source} saved: ${describeError(err)}`, { sessionId: entry.sessionId });
  }
}

/** Every readable entry, oldest first; files that are not entries are skipped. */
export function listSavings(home: string): SavingsEntry[] {
  const dir = savingsDir(home);
  let names: string[];
  try {
    names = readdirSync(dir).filter((name) => name.endsWith('.json')).sort();
  } catch {
    return [];
  }
  const entries: SavingsEntry[] = [];
  for (const name of names) {
    const entry = parseEntry(join(dir, name));
    if (entry) entries.push(entry);
  }
  return entries;
}

const SOURCES: ReadonlySet<string> = new Set<LedgerSource>(['backfill', 'fork', 'in-place']);
const isCount = (value: unknown): value is number => typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;

const ENTRY_FIELDS = { version: 1, source: 'string', sessionId: 'string' } as const;

function parseEntry(file: string): SavingsEntry | null {
  const record = readJsonObjectFile(file);
  if (record === null || firstBadField(record, ENTRY_FIELDS) !== null) return null;
  const e = record as Record<string, unknown> & { source: string; sessionId: string };
  if (!SOURCES.has(e.source)) return null;
  if (!isCount(e.outputs) || !isCount(e.originalChars) || !isCount(e.shownChars)) return null;
  return {
    version: 1,
    source: e.source as LedgerSource,
    sessionId: e.sessionId,
    newSessionId: typeof e.newSessionId === 'string' ? e.newSessionId : null,
    at: typeof e.at === 'string' ? e.at : '',
    outputs: e.outputs,
    originalChars: e.originalChars,
    shownChars: e.shownChars,
    resume: beforeAfter(e.resume),
    wholeFile: beforeAfter(e.wholeFile),
  };
}

function beforeAfter(value: unknown): { beforeChars: number; afterChars: number } | null {
  if (!isObject(value)) return null;
  const { beforeChars, afterChars } = value;
  return isCount(beforeChars) && isCount(afterChars) ? { beforeChars, afterChars } : null;
}
