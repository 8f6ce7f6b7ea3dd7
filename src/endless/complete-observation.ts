/**
 * Finishing observations outside the hook: the background completion the hook starts, backfill and
 * fork. Each entry's full text is saved before anything else; the model's observation is added to
 * its record when it comes. A failed call is counted, so one output is not retried forever.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { describeError } from '../core/errors.js';
import type { Logger } from '../core/log.js';
import type { EndlessSettings } from './endless-settings.js';
import { entryPaths, listRecords, readOriginal, readRecord, saveOriginal, writeRecord, type EntryPaths, type ObservationRecord } from './endless-store.js';
import type { ObserveFn } from './ollama-observe.js';
import { renderObservationText } from './render-compressed.js';
import { redactSecrets } from '../redact/redact-secrets.js';
import { redactValue } from '../redact/redact-value.js';

/** The transcript still holds these outputs: no fsync per file (see endless-store). */
const QUICK = { durable: false } as const;

/** Model calls per output before only `backfill --retry` tries again. */
export const MAX_ATTEMPTS = 3;

export interface CompleteDeps {
  home: string;
  settings: EndlessSettings;
  observe: ObserveFn;
  now(): number;
  logger: Logger;
}

export interface EntrySource {
  sessionId: string;
  toolUseId: string;
  toolName: string;
  toolInput: unknown;
  text: string;
  /** The structured value to keep beside the text (a transcript's `toolUseResult`, say). */
  response: unknown;
}

/**
 * The entry's paths and record, saving the full text first when it was never saved. `saved`: file
 * names already in the session's folder (one listing for many entries); a name missing from it is
 * still looked for, since it may have been written since.
 */
export function ensureEntry(home: string, source: EntrySource, now: number, saved?: ReadonlySet<string>): { paths: EntryPaths; record: ObservationRecord } {
  const paths = entryPaths(home, source.sessionId, source.toolUseId);
  if (!saved?.has(basename(paths.text)) && !existsSync(paths.text)) {
    // Saved redacted, like the hook's: the agent may be told to read this file.
    saveOriginal(paths, redactSecrets(source.text).text, {
      version: 1, sessionId: source.sessionId, toolUseId: source.toolUseId, toolName: source.toolName,
      toolInput: redactValue(source.toolInput), from: 'transcript', savedAt: new Date(now).toISOString(), response: redactValue(source.response),
    }, QUICK);
  }
  const existing = readRecord(paths.record);
  if (existing) return { paths, record: existing };
  const at = new Date(now).toISOString();
  const record: ObservationRecord = {
    version: 1, sessionId: source.sessionId, toolUseId: source.toolUseId, toolName: source.toolName,
    originalChars: source.text.length, originalLines: source.text.split('\n').length,
    answer: 'none', compressedChars: null, observation: null, observationChars: null,
    model: null, attempts: 0, lastError: null, createdAt: at, updatedAt: at,
  };
  writeRecord(paths, record, QUICK);
  return { paths, record };
}

/** Asks the model for the entry's observation and stores it; returns the updated record. */
export async function completeEntry(paths: EntryPaths, record: ObservationRecord, deps: CompleteDeps): Promise<ObservationRecord> {
  if (record.observation) return record;
  const model = deps.settings.ollama.model;
  if (model === null) return record;
  const text = readFileSync(paths.text, 'utf8');
  const toolInput = readOriginal(paths.original)?.toolInput ?? null;
  // Loaded when a model is asked only: a fork of stored observations never builds a prompt.
  const { DEFAULT_MAX_PROMPT_OUTPUT_CHARS, buildObservationPrompt } = await import('./observation-prompt.js');
  const prompt = buildObservationPrompt(record.toolName, toolInput, text, { maxOutputChars: DEFAULT_MAX_PROMPT_OUTPUT_CHARS, minNumCtx: deps.settings.ollama.numCtx });
  let updated: ObservationRecord;
  try {
    const observation = redactValue(await deps.observe({ host: deps.settings.ollama.host, model, prompt, timeoutMs: deps.settings.ollama.timeoutMs }));
    const rendered = renderObservationText(observation, { toolName: record.toolName, originalChars: record.originalChars, originalLines: record.originalLines, fullOutputPath: paths.text });
    updated = { ...record, observation, observationChars: rendered.length, model, attempts: record.attempts + 1, lastError: null, updatedAt: new Date(deps.now()).toISOString() };
  } catch (err) {
    updated = { ...record, model, attempts: record.attempts + 1, lastError: describeError(err), updatedAt: new Date(deps.now()).toISOString() };
    deps.logger.log('warn', `observation failed: ${updated.lastError}`, { toolUseId: record.toolUseId, attempts: updated.attempts });
  }
  writeRecord(paths, updated);
  return updated;
}

/** Records still waiting for an observation, oldest first. */
export function pendingRecords(home: string, maxAttempts = MAX_ATTEMPTS): ObservationRecord[] {
  return listRecords(home)
    .filter((r) => r.observation === null && r.attempts < maxAttempts && !(r.lastError ?? '').startsWith('LLM_MODEL_MISSING'))
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt));
}

/** Completes one stored entry by its ids; false when there is nothing saved under them. */
export async function completeStoredEntry(sessionId: string, toolUseId: string, deps: CompleteDeps): Promise<ObservationRecord | null> {
  const paths = entryPaths(deps.home, sessionId, toolUseId);
  const record = readRecord(paths.record);
  if (!record || !existsSync(paths.text)) return null;
  return completeEntry(paths, record, deps);
}

/** The file names saved for a session so far (none when its folder does not exist yet). */
export function savedEntryNames(home: string, sessionId: string): Set<string> {
  try {
    return new Set(readdirSync(dirname(entryPaths(home, sessionId, 'x').text)));
  } catch {
    return new Set();
  }
}
