/**
 * `recall endless backfill`: the missing observations of an existing session, one model call per
 * eligible tool result. Resumable: each observation is stored as it comes, so a second run starts
 * where the first stopped. Stops early when Ollama is down or lacks the model.
 */
import { RecallError } from '../core/errors.js';
import { MAX_ATTEMPTS, completeEntry, ensureEntry, type CompleteDeps } from './complete-observation.js';
import { endlessRoot } from './endless-store.js';
import { recordSavings } from './savings-ledger.js';
import { findToolResults, sessionIdsOf, type ToolResultRef } from './fork-transcript.js';
import { isSystemicFailure } from './prepare-replacements.js';
import { selectForResume } from './resume-rules.js';
import { readTranscriptSnapshot, requireClaudeSession } from './transcript-snapshot.js';
import { basename } from 'node:path';

export interface BackfillOptions extends CompleteDeps {
  /** Try again outputs whose earlier attempts all failed. */
  retry: boolean;
  onProgress?(done: number, total: number, ref: ToolResultRef, outcome: BackfillOutcome): void;
}

export type BackfillOutcome = 'had' | 'created' | 'failed' | 'skipped';

export interface BackfillSummary {
  sessionId: string;
  eligible: number;
  had: number;
  created: number;
  failed: number;
  skipped: number;
  stoppedBy: string | null;
}

export async function backfillSession(transcriptPath: string, options: BackfillOptions): Promise<BackfillSummary> {
  // What the file is comes first: a file that is no Claude Code session is named as such, with or without a model.
  const snapshot = await readTranscriptSnapshot(transcriptPath);
  requireClaudeSession(snapshot);
  if (options.settings.ollama.model === null) {
    throw new RecallError('LLM_NOT_CONFIGURED', 'no model to write observations with: set RECALL_OLLAMA_LLM_MODEL (for example `export RECALL_OLLAMA_LLM_MODEL=llama3.2`)');
  }
  const sessionId = sessionIdsOf(snapshot.records)[0] ?? basename(transcriptPath).replace(/\.jsonl$/, '');
  // What a fork would compress, the last results included (a later fork may keep fewer whole).
  const chosen = selectForResume(findToolResults(snapshot.records), options.settings, 0, endlessRoot(options.home)).map((c) => c.ref);
  const summary: BackfillSummary = { sessionId, eligible: chosen.length, had: 0, created: 0, failed: 0, skipped: 0, stoppedBy: null };
  // The observations this run wrote: the outputs' characters and those of the text a fork will show instead.
  const made = { originalChars: 0, shownChars: 0 };
  for (const [i, ref] of chosen.entries()) {
    const response = ref.toolUseResult !== undefined ? ref.toolUseResult : ref.text;
    const entry = ensureEntry(options.home, { sessionId, toolUseId: ref.toolUseId, toolName: ref.toolName, toolInput: ref.toolInput, text: ref.text, response }, options.now());
    let outcome: BackfillOutcome;
    if (entry.record.observation !== null) outcome = 'had';
    else if (summary.stoppedBy !== null || (!options.retry && entry.record.attempts >= MAX_ATTEMPTS)) outcome = 'skipped';
    else {
      const record = await completeEntry(entry.paths, entry.record, options);
      outcome = record.observation !== null ? 'created' : 'failed';
      if (outcome === 'created') {
        made.originalChars += record.originalChars;
        made.shownChars += record.observationChars ?? 0;
      }
      if (outcome === 'failed' && isSystemicFailure(record.lastError)) summary.stoppedBy = record.lastError;
    }
    summary[outcome] += 1;
    options.onProgress?.(i + 1, chosen.length, ref, outcome);
  }
  if (summary.created > 0) {
    recordSavings(options.home, {
      version: 1, source: 'backfill', sessionId, newSessionId: null, at: new Date(options.now()).toISOString(),
      outputs: summary.created, ...made, resume: null, wholeFile: null,
    }, options.logger);
  }
  return summary;
}
