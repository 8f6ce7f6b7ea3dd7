/**
 * One capture, start to end: transcript (each event redacted, then budgeted) -> model -> redact -> embed ->
 * dedupe -> store.
 * Shared by the queue worker and `recall capture`.
 */
import { RecallError } from '../core/errors.js';
import type { CandidateMemory, MemoryOrigin, MemoryRecord } from '../core/memory.js';
import { extractMemories } from '../extract/extract-memories.js';
import { resolveProject } from '../project/resolve-project.js';
import { redactSecrets } from '../redact/redact-secrets.js';
import { decisionOptions } from '../store/decision-options.js';
import { storeMemories } from '../store/store-memories.js';
import type { StoreParts } from '../store/store-parts.js';
import { attributeSource } from '../transcript/attribute-source.js';
import { readTranscript } from '../transcript/read-transcript.js';
import { SESSION_FORMATS } from '../transcript/check-transcript-file.js';

/** The parts a capture needs: the store's, built by the composition root. */
export type CaptureDeps = StoreParts;

export interface CaptureRequest {
  transcriptPath: string;
  cwd: string | null;
  sessionId: string | null;
  source: string;
  /** The bytes of the transcript to read (a session captured in parts); the whole file when absent. */
  span?: { fromByte: number; toByte: number | null };
  /** Memories the model already returned for this job (a re-run after a crash); skips the model. */
  cached?: readonly CandidateMemory[];
  /** Called with the model's memories before anything is stored, so the caller can persist them. */
  onExtracted?: (memories: readonly CandidateMemory[]) => void;
}

export type CaptureResult =
  | {
      status: 'skipped';
      why: string;
      /**
       * `not-transcript`: no line of the file is a session event; `too-short`: under transcript.minChars;
       * `nothing-new`: a session captured in parts holds no byte past its last capture.
       */
      reason: 'not-transcript' | 'too-short' | 'nothing-new';
      namespace: string;
      transcriptChars: number;
    }
  | {
      status: 'stored';
      namespace: string;
      transcriptChars: number;
      redactions: number;
      extracted: number;
      /** Memories the model gave past `extract.maxMemories`, left out. */
      dropped: number;
      inserted: MemoryRecord[];
      reinforced: number;
      /** Stored memories this capture replaced (changed decisions). */
      superseded: number;
      /** New memories the write-time screen held back for `recall review`. */
      quarantined: number;
      skipped: number;
    };

export async function captureTranscript(request: CaptureRequest, deps: CaptureDeps): Promise<CaptureResult> {
  const project = resolveProject(request.cwd);
  const origin: MemoryOrigin = {
    namespace: project.namespace,
    projectRoot: project.root,
    sessionId: request.sessionId,
    source: request.source,
  };

  let candidates: readonly CandidateMemory[];
  let redactions = 0;
  let transcriptChars = 0;
  let dropped = 0;
  if (request.cached) {
    candidates = request.cached;
  } else {
    if (!deps.config.ollama.llmModel) {
      throw new RecallError('LLM_NOT_CONFIGURED', 'no extraction model: set RECALL_OLLAMA_LLM_MODEL (for example `llama3.2`)');
    }
    // Every event is redacted as it is read, before the budget cuts anything; this pass only makes sure.
    const transcript = await readTranscript(request.transcriptPath, {
      maxChars: deps.config.transcript.maxChars,
      maxLineBytes: deps.config.transcript.maxLineBytes,
      ...(request.span === undefined ? {} : { startByte: request.span.fromByte, endByte: request.span.toByte }),
    });
    if (transcript.turns === 0) {
      return { status: 'skipped', why: notATranscript(transcript.skippedLines), reason: 'not-transcript', namespace: origin.namespace, transcriptChars: 0 };
    }
    const redacted = redactSecrets(transcript.text);
    redactions = countRedactions(redacted.text);
    transcriptChars = redacted.text.length;
    if (redacted.text.trim().length < deps.config.transcript.minChars) {
      return { status: 'skipped', why: `transcript under ${deps.config.transcript.minChars} characters`, reason: 'too-short', namespace: origin.namespace, transcriptChars };
    }
    const extraction = await extractMemories(
      { transcript: redacted.text, firstRequest: transcript.firstRequest },
      { llm: deps.llm(), minNumCtx: deps.config.ollama.numCtx, maxMemories: deps.config.extract.maxMemories },
    );
    // The model's answer rests in the job file until it is stored: redact it before anything keeps it.
    candidates = extraction.memories.map((memory) => {
      const content = redactSecrets(memory.content).text;
      return { ...memory, content, provenance: attributeSource(content, transcript.sources()) };
    });
    dropped = extraction.dropped;
    request.onExtracted?.(candidates);
  }

  const clean = candidates.map((memory) => ({ ...memory, content: redactSecrets(memory.content).text }));
  const embedder = await deps.embedder();
  const store = await deps.store();
  const outcome = await deps.withStoreLock(() =>
    storeMemories(clean, origin, { embedder, store, ...decisionOptions(deps.config, deps.llm, deps.log), clock: deps.clock }),
  );
  return {
    status: 'stored',
    namespace: origin.namespace,
    transcriptChars,
    redactions,
    extracted: candidates.length,
    dropped,
    inserted: outcome.inserted,
    reinforced: outcome.reinforced.length,
    superseded: outcome.superseded.length,
    quarantined: outcome.quarantined.length,
    skipped: outcome.skipped,
  };
}

function countRedactions(text: string): number {
  return text.match(/\[REDACTED:/g)?.length ?? 0;
}

/** Why a file without a single session event is no transcript, in words a user can act on. */
function notATranscript(lines: number): string {
  const what = lines === 0 ? 'it holds no session events' : `none of its ${lines} lines is a session event`;
  return `not a transcript: ${what} (recall reads ${SESSION_FORMATS})`;
}
