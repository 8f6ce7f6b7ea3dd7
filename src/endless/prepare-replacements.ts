/**
 * For fork and in-place compression: the compressed text of each chosen tool result. Its full text
 * is saved first; the stored observation is used when there is one, the model is asked when allowed,
 * and the deterministic reduction stands in otherwise. A result the replacement would not shrink
 * enough is left whole.
 */
import { basename } from 'node:path';
import { MAX_ATTEMPTS, completeEntry, ensureEntry, type CompleteDeps } from './complete-observation.js';
import { MAX_KEPT_SHARE } from './compress-tool-output.js';
import { endlessRoot, type ObservationRecord, type EntryPaths } from './endless-store.js';
import { findToolResults, selectCompressible, sessionIdsOf, type Replacement, type ToolResultRef } from './fork-transcript.js';
import { DEFAULT_REDUCTION_CHARS, reduceOutput } from './reduce-output.js';
import { renderObservationText, renderReductionText } from './render-compressed.js';
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
  const chosen = selectCompressible(refs, options.settings, options.keepRecent, endlessRoot(options.home));
  const replacements: Replacement[] = [];
  let observations = 0;
  let reductions = 0;
  let modelError: string | null = null;
  for (const [i, ref] of chosen.entries()) {
    const response = ref.toolUseResult !== undefined ? ref.toolUseResult : ref.text;
    const entry = ensureEntry(options.home, { sessionId, toolUseId: ref.toolUseId, toolName: ref.toolName, toolInput: ref.toolInput, text: ref.text, response }, options.now());
    const { paths } = entry;
    let { record } = entry;
    if (options.useModel && modelError === null && record.observation === null && record.attempts < MAX_ATTEMPTS && options.settings.ollama.model !== null) {
      record = await completeEntry(paths, record, options);
      if (record.observation === null && isSystemicFailure(record.lastError)) modelError = record.lastError;
    }
    const replacement = replacementFor(ref, record, paths);
    if (replacement !== null) {
      replacements.push({ ref, text: replacement.text });
      if (replacement.kind === 'observation') observations += 1;
      else reductions += 1;
    }
    options.onProgress?.(i + 1, chosen.length, ref);
  }
  return { sessionId, results: refs.length, replacements, observations, reductions, modelError };
}

export function replacementFor(ref: ToolResultRef, record: ObservationRecord, paths: EntryPaths): { text: string; kind: 'observation' | 'reduction' } | null {
  const meta = { toolName: ref.toolName, originalChars: record.originalChars, originalLines: record.originalLines, fullOutputPath: paths.text };
  const limit = ref.text.length * MAX_KEPT_SHARE;
  if (record.observation) {
    const text = renderObservationText(record.observation, meta);
    if (text.length <= limit) return { text, kind: 'observation' };
  }
  const keep = toolKind(ref.toolName) === 'read' ? 'outline' : 'errors';
  const text = renderReductionText(reduceOutput(ref.text, { maxChars: DEFAULT_REDUCTION_CHARS, keep }).text, meta);
  return text.length <= limit ? { text, kind: 'reduction' } : null;
}
