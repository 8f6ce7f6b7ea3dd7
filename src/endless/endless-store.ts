/**
 * Where Endless Mode keeps what it replaced: RECALL_HOME/endless/<session>/<tool_use_id>.*
 *   .txt            the full original text, the file the pointer line names (0600)
 *   .original.json  the tool's original output value, exactly as received (0600)
 *   .record.json    sizes, what was answered, and the observation once there is one
 *   .input.json     at resume only: the whole input of a file-writing call whose long texts a
 *                   fork left out (see resume-inputs.ts)
 * Node built-ins only: the PostToolUse hook writes here. Every write is atomic (temp file + rename).
 */
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { ensureDir, writeFileAtomic } from '../core/atomic-write.js';
import type { Observation } from './observation.js';
import { parseJsonObject } from '../core/read-json-object.js';

export type Answer = 'observation' | 'reduction' | 'none';

export interface ObservationRecord {
  version: 1;
  sessionId: string;
  toolUseId: string;
  toolName: string;
  originalChars: number;
  originalLines: number;
  /** What the agent was shown instead: an observation, the reduction, or nothing (output left whole). */
  answer: Answer;
  /** Characters of the replacement text; null when nothing was replaced. */
  compressedChars: number | null;
  observation: Observation | null;
  /** Characters of the rendered observation (pointer included), once there is one. */
  observationChars: number | null;
  model: string | null;
  /** Model calls made for this output so far. */
  attempts: number;
  lastError: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface OriginalDoc {
  version: 1;
  sessionId: string;
  toolUseId: string;
  toolName: string;
  toolInput: unknown;
  /** `hook`: a PostToolUse payload; `transcript`: a tool result found by fork or backfill. */
  from: 'hook' | 'transcript';
  savedAt: string;
  response: unknown;
}

export interface EntryPaths {
  dir: string;
  text: string;
  original: string;
  record: string;
  input: string;
}

export function endlessRoot(home: string): string {
  return join(home, 'endless');
}

export function entryPaths(home: string, sessionId: string, toolUseId: string): EntryPaths {
  const dir = join(endlessRoot(home), safeKey(sessionId));
  const base = join(dir, safeKey(toolUseId));
  return { dir, text: `${base}.txt`, original: `${base}.original.json`, record: `${base}.record.json`, input: `${base}.input.json` };
}

/** Ids as file names when they are plain, a hash of them otherwise (never a path of the caller's choosing). */
export function safeKey(id: string): string {
  if (/^[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}$/.test(id)) return id;
  return `x-${createHash('sha256').update(id).digest('hex').slice(0, 32)}`;
}

/**
 * `durable` (the hook: the only copy of an output the agent will no longer see) fsyncs each file;
 * otherwise (fork, backfill: the transcript still holds the output) files are only renamed into
 * place, which keeps a fork of thousands of outputs fast and never shows a half-written file.
 */
export interface WriteOptions {
  durable: boolean;
}

/** Saves the full text and the original value; call before anything is replaced. */
export function saveOriginal(paths: EntryPaths, text: string, doc: OriginalDoc, options: WriteOptions = { durable: true }): void {
  write(paths.text, text, options);
  write(paths.original, `${JSON.stringify(doc)}\n`, options);
}

export interface InputDoc {
  version: 1;
  sessionId: string;
  toolUseId: string;
  toolName: string;
  savedAt: string;
  input: unknown;
}

/** Saves a call's whole input; call before the transcript loses any of it. */
export function saveInput(paths: EntryPaths, doc: InputDoc, options: WriteOptions = { durable: true }): void {
  write(paths.input, `${JSON.stringify(doc, null, 2)}\n`, options);
}

export function writeRecord(paths: EntryPaths, record: ObservationRecord, options: WriteOptions = { durable: true }): void {
  write(paths.record, `${JSON.stringify(record, null, 2)}\n`, options);
}

const madeDirs = new Set<string>();

function write(file: string, content: string, { durable }: WriteOptions): void {
  if (durable) return writeFileAtomic(file, content);
  const dir = dirname(file);
  if (!madeDirs.has(dir)) {
    ensureDir(dir);
    madeDirs.add(dir);
  }
  const tmp = join(dir, `.tmp-${basename(file)}-${randomBytes(4).toString('hex')}`);
  try {
    try {
      writeFileSync(tmp, content, { mode: 0o600, flag: 'wx' });
    } catch (err) {
      // The folder went away since it was made (a cleaned-up state dir): make it again, once.
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      ensureDir(dir);
      writeFileSync(tmp, content, { mode: 0o600, flag: 'wx' });
    }
    renameSync(tmp, file);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
}

export function readRecord(file: string): ObservationRecord | null {
  const value = readJsonObjectFile(file);
  if (value === null || value.version !== 1 || typeof value.toolUseId !== 'string' || typeof value.originalChars !== 'number') return null;
  return value as unknown as ObservationRecord;
}

export function readOriginal(file: string): OriginalDoc | null {
  const value = readJsonObjectFile(file);
  if (value === null || value.version !== 1 || typeof value.toolName !== 'string') return null;
  return value as unknown as OriginalDoc;
}

/** Every record, or one session's; unreadable files are skipped. */
export function listRecords(home: string, sessionId?: string): ObservationRecord[] {
  const root = endlessRoot(home);
  const sessions = sessionId !== undefined ? [safeKey(sessionId)] : listDir(root);
  const out: ObservationRecord[] = [];
  for (const session of sessions) {
    for (const name of listDir(join(root, session))) {
      if (!name.endsWith('.record.json')) continue;
      const record = readRecord(join(root, session, name));
      if (record) out.push(record);
    }
  }
  return out;
}

function listDir(dir: string): string[] {
  try {
    return readdirSync(dir).sort();
  } catch {
    return [];
  }
}

/** A JSON object file of Endless Mode's, or null when it is unreadable or not one. */
export function readJsonObjectFile(file: string): Record<string, unknown> | null {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return null;
  }
  const parsed = parseJsonObject(text);
  return parsed.ok ? parsed.record : null;
}
