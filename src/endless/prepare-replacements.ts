/**
 * For fork and in-place compression: the compressed text of each chosen tool result. Its full text
 * is saved first; the stored observation is used when there is one, the model is asked when allowed,
 * and the deterministic reduction stands in otherwise. A result the replacement would not shrink
 * enough is left whole.
 */
import { basename } from 'node:path';
import { MAX_ATTEMPTS, completeEntry, ensureEntry, savedEntryNames, type CompleteDeps } from './complete-observation.js';
import { MAX_KEPT_SHARE } from './eligibility.js';
import { endlessRoot, entryPaths, saveInput, type ObservationRecord, type EntryPaths } from './endless-store.js';
import { findToolResults, sessionIdsOf, type Replacement, type ToolResultRef } from './fork-transcript.js';
import { DEFAULT_REDUCTION_CHARS, reduceOutput } from './reduce-output.js';
import { renderObservationText, renderReductionText } from './render-compressed.js';
import { findFileWrites, selectInputReplacements, type InputReplacement } from './resume-inputs.js';
import { selectForResume } from './resume-rules.js';
import { toolKind } from './tool-shapes.js';
import type { TranscriptSnapshot } from './transcript-snapshot.js';

export interface PrepareOptions extends CompleteDeps {
  keepRecent: number;
  /** Ask the model for observations that are missing (else stored ones and reductions only). */
  useModel: boolean;
  onProgress?(done: number, total: number, ref: ToolResultRef): void;
}

export interface Prepared {
  sessionId: string;
  results: number;
  replacements: Replacement[];
  /** File-writing calls whose long input texts are left out (see resume-inputs.ts). */
  inputs: InputReplacement[];
  observations: number;
  reductions: number;
  /** The first error that stopped model calls, if one did. */
  modelError: string | null;
}

/** A recorded failure (`CODE: message`) after which asking again for the next output is pointless. */
export function isSystemicFailure(lastError: string | null): boolean {
  return lastError !== null && /^(LLM_UNAVAILABLE|LLM_MODEL_MISSING|LLM_NOT_CONFIGURED):/.test(lastError);
}

export async function prepareReplacements(snapshot: TranscriptSnapshot, options: PrepareOptions): Promise<Prepared> {
  const sessionId = sessionIdsOf(snapshot.records)[0] ?? basename(snapshot.path).replace(/\.jsonl$/, '');
  const refs = findToolResults(snapshot.records);
  const chosen = selectForResume(refs, options.settings, options.keepRecent, endlessRoot(options.home));
  const replacements: Replacement[] = [];
  let observations = 0;
  let reductions = 0;
  let modelError: string | null = null;
  const saved = savedEntryNames(options.home, sessionId);
  for (const [i, { ref, ...why }] of chosen.entries()) {
    const response = ref.toolUseResult !== undefined ? ref.toolUseResult : ref.text;
    const entry = ensureEntry(options.home, { sessionId, toolUseId: ref.toolUseId, toolName: ref.toolName, toolInput: ref.toolInput, text: ref.text, response }, options.now(), saved);
    const { paths } = entry;
    let { record } = entry;
    if (options.useModel && modelError === null && record.observation === null && record.attempts < MAX_ATTEMPTS && options.settings.ollama.model !== null) {
      record = await completeEntry(paths, record, options);
      if (record.observation === null && isSystemicFailure(record.lastError)) modelError = record.lastError;
    }
    const replacement = replacementFor(ref, record, paths, why);
    if (replacement !== null) {
      replacements.push({ ref, text: replacement.text });
      if (replacement.kind === 'observation') observations += 1;
      else reductions += 1;
    }
    options.onProgress?.(i + 1, chosen.length, ref);
  }
  const inputs = prepareInputs(snapshot, sessionId, refs, options);
  return { sessionId, results: refs.length, replacements, inputs, observations, reductions, modelError };
}

/** The file-writing calls to shorten, each call's whole input saved first. */
function prepareInputs(snapshot: TranscriptSnapshot, sessionId: string, refs: readonly ToolResultRef[], options: PrepareOptions): InputReplacement[] {
  const succeeded = new Set(refs.filter((r) => !r.isError).map((r) => r.toolUseId));
  const recent = new Set(refs.slice(Math.max(0, refs.length - options.keepRecent)).map((r) => r.toolUseId));
  const uses = findFileWrites(snapshot.records);
  const keepWhole = new Set(uses.map((u) => u.toolUseId).filter((id) => recent.has(id) || !succeeded.has(id)));
  const inputs = selectInputReplacements(uses, {
    keepWhole,
    minChars: options.settings.forkMinChars,
    savedPathOf: (use) => entryPaths(options.home, sessionId, use.toolUseId).input,
  });
  const savedAt = new Date(options.now()).toISOString();
  for (const { use } of inputs) {
    saveInput(entryPaths(options.home, sessionId, use.toolUseId), { version: 1, sessionId, toolUseId: use.toolUseId, toolName: use.toolName, savedAt, input: use.input }, { durable: false });
  }
  return inputs;
}

/** Budget of the reduction of a superseded file result: its text is out of date, an outline is enough. */
export const SUPERSEDED_REDUCTION_CHARS = 600;
/** A reduction keeps at most this share of the output (within 600..2,400 characters). */
const REDUCTION_SHARE = 0.4;
/** What only the resume rules choose must at least halve: a smaller saving is not worth the detail lost. */
export const RESUME_KEPT_SHARE = 0.5;

export interface ReplacementReason {
  supersededBy: string | null;
  /** Chosen by the live hook's rules (else by the resume rules only). */
  live: boolean;
}

export function replacementFor(ref: ToolResultRef, record: ObservationRecord, paths: EntryPaths, why: ReplacementReason = { supersededBy: null, live: true }): { text: string; kind: 'observation' | 'reduction' } | null {
  const { supersededBy } = why;
  const meta = { toolName: ref.toolName, originalChars: record.originalChars, originalLines: record.originalLines, fullOutputPath: paths.text, supersededBy };
  const limit = ref.text.length * (why.live ? MAX_KEPT_SHARE : RESUME_KEPT_SHARE);
  if (record.observation) {
    const text = renderObservationText(record.observation, meta);
    if (text.length <= limit) return { text, kind: 'observation' };
  }
  const kind = toolKind(ref.toolName);
  const keep = kind === 'read' || kind === null ? 'outline' : 'errors';
  const maxChars = supersededBy !== null ? SUPERSEDED_REDUCTION_CHARS : Math.min(DEFAULT_REDUCTION_CHARS, Math.max(SUPERSEDED_REDUCTION_CHARS, Math.floor(ref.text.length * REDUCTION_SHARE)));
  const text = renderReductionText(reduceOutput(ref.text, { maxChars, keep }).text, meta);
  return text.length <= limit ? { text, kind: 'reduction' } : null;
}
