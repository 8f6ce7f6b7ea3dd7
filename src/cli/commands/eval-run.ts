/**
 * One model over one session for `recall eval`: its memories, what storing them would do, Ollama's
 * token figures. A model that cannot be asked (missing, the server erred or timed out) is a result of
 * the comparison, not the end of it: the error is kept with the run and the other models go on.
 */
import { RecallError } from '../../core/errors.js';
import type { Llm, LlmUsage } from '../../core/ports.js';
import type { MemoryOutcome, RunError, SessionRun, StoreEffect } from '../../extract/compare-models.js';
import { extractMemories } from '../../extract/extract-memories.js';
import { redactSecrets } from '../../redact/redact-secrets.js';
import { decisionOptions } from '../../store/decision-options.js';
import { createModelJudge } from '../../store/model-judge.js';
import { previewStore } from '../../store/preview-store.js';
import type { Runtime } from '../../app/runtime.js';

export interface SessionInput {
  path: string;
  transcript: string;
  firstRequest: string | null;
  namespace: string;
}

/** An Llm that notes whether the model was asked a second time (its schema-constrained answer was unusable). */
function countingLlm(llm: Llm): Llm & { calls: number } {
  const counted = {
    model: llm.model,
    calls: 0,
    chat(request: Parameters<Llm['chat']>[0]) {
      counted.calls += 1;
      return llm.chat(request);
    },
  };
  return counted;
}

export async function runModel(runtime: Runtime, model: string, input: SessionInput): Promise<SessionRun> {
  const usage = { outputTokens: 0, outputSeconds: 0 };
  const llm = countingLlm(runtime.llmFor(model, (u: LlmUsage) => {
    usage.outputTokens += u.outputTokens;
    usage.outputSeconds += u.outputSeconds;
  }));
  const started = performance.now();
  let memories: SessionRun['memories'] = [];
  let dropped = 0;
  let failed = false;
  let error: RunError | null = null;
  try {
    const extraction = await extractMemories(input, { llm, minNumCtx: runtime.config.ollama.numCtx, maxMemories: runtime.config.extract.maxMemories });
    memories = extraction.memories.map((m) => ({ ...m, content: redactSecrets(m.content).text }));
    dropped = extraction.dropped;
  } catch (err) {
    if (!(err instanceof RecallError)) throw err;
    // A model that answers nothing usable is a figure of the comparison; one that cannot be asked is reported.
    if (err.code === 'LLM_BAD_OUTPUT') failed = true;
    else error = { code: err.code, message: err.message };
  }
  const seconds = Math.round((performance.now() - started) / 100) / 10;
  const preview = error === null ? await previewOf(runtime, model, memories, input.namespace) : null;
  return {
    model,
    session: input.path,
    memories,
    dropped,
    schemaRetry: llm.calls > 1,
    failed,
    error,
    seconds,
    ...usage,
    effect: preview === null ? null : { duplicates: preview.duplicates, supersedes: preview.supersedes, fresh: preview.fresh },
    outcomes: preview?.outcomes ?? [],
  };
}

/** A run for a model already known to be missing: its later sessions are not asked again. */
export function skippedRun(model: string, session: string, error: RunError): SessionRun {
  return { model, session, memories: [], dropped: 0, schemaRetry: false, failed: false, error, seconds: 0, outputTokens: 0, outputSeconds: 0, effect: null, outcomes: [] };
}

/**
 * What storing the memories would do, decided as a capture with this model would decide it: the model that
 * extracts is also the judge of the pairs the supersede rules leave open, so a model is tried as both.
 */
async function previewOf(runtime: Runtime, model: string, memories: SessionRun['memories'], namespace: string): Promise<(StoreEffect & { outcomes: MemoryOutcome[] }) | null> {
  const decide = { ...decisionOptions(runtime.config, runtime.llm, runtime.log), judge: createModelJudge(runtime.llmFor(model)) };
  try {
    return await previewStore(memories, namespace, { embedder: await runtime.embedder(), store: await runtime.store(), decide });
  } catch (err) {
    if (err instanceof RecallError) return null;
    throw err;
  }
}
