/**
 * The PostToolUse decision: leave the output alone, or save it whole and answer with an
 * observation (the model answered in time) or the deterministic reduction (it did not), in the
 * tool's own output shape. I/O comes in through `CompressDeps`, so tests can hand in doubles.
 */
import { describeError, isRecallError } from '../core/errors.js';
import type { Logger } from '../core/log.js';
import { MAX_KEPT_SHARE, judgeText, judgeToolOutput, refuseByInput } from './eligibility.js';
import { isObject } from '../core/is-object.js';
import type { EndlessSettings } from './endless-settings.js';
import { endlessRoot, entryPaths, saveOriginal, writeRecord, type Answer, type EntryPaths, type ObservationRecord } from './endless-store.js';
import type { Observation } from './observation.js';
import { DEFAULT_MAX_PROMPT_OUTPUT_CHARS, buildObservationPrompt } from './observation-prompt.js';
import type { ObserveFn } from './ollama-observe.js';
import { DEFAULT_REDUCTION_CHARS, reduceOutput } from './reduce-output.js';
import { renderObservationText, renderReductionText, type OutputMeta } from './render-compressed.js';
import { rebuildToolResponse, toolKind } from './tool-shapes.js';
import type { PostToolUsePayload } from './post-tool-use-input.js';
import { redactSecrets } from '../redact/redact-secrets.js';
import { redactValue } from '../redact/redact-value.js';

export interface CompressDeps {
  home: string;
  /** Epoch milliseconds. */
  now(): number;
  /** Epoch milliseconds by which the answer must be decided (the sync timeout minus a reserve). */
  deadlineAt: number;
  observe: ObserveFn;
  logger: Logger;
  /** Starts the detached background completion; resolves false when it could not start. */
  spawnCompleter(sessionId: string, toolUseId: string): Promise<boolean>;
  /**
   * How the agent takes a replacement: Claude Code reads `updatedToolOutput` in the tool's own shape (the
   * default); Codex sends the `reason` of a `{"decision":"block"}` answer to the model instead of the output,
   * and hands the hook every output as plain text. GitHub Copilot CLI sends the `textResultForLlm` of a
   * `modifiedResult` answer instead of the output, and also hands the hook plain text. Qwen Code sends the
   * `stopReason` of a `{"continue":false}` answer instead of the output, and hands the hook Gemini's `llmContent`.
   */
  answerStyle?: AnswerStyle;
}

export type AnswerStyle = 'updated-tool-output' | 'block-reason' | 'modified-result' | 'stop-reason';

/** Below this much time left, the model is not asked at all. */
const MIN_MODEL_MS = 100;

export type HookAnswer = Record<string, unknown>;

export async function compressToolOutput(payload: PostToolUsePayload, settings: EndlessSettings, deps: CompressDeps): Promise<HookAnswer> {
  const { toolName, sessionId, toolUseId } = payload;
  const refusal = refuseByInput(toolName, payload.toolInput, endlessRoot(deps.home));
  const blockReason = deps.answerStyle === 'block-reason';
  // A text answer replaces the output with text: the output is judged as the text the model would get
  // (Codex sends it as text; Gemini CLI as `llmContent` beside what the terminal shows; Copilot CLI as text).
  const textAnswer = blockReason || deps.answerStyle === 'modified-result' || deps.answerStyle === 'stop-reason';
  const plainText = textAnswer ? outputText(payload.toolResponse) : null;
  const verdict =
    refusal !== null
      ? { eligible: false as const, reason: refusal }
      : plainText !== null
        ? judgeText(toolName, plainText, settings)
        : judgeToolOutput(toolName, payload.toolResponse, settings, { requireStructured: payload.idDerived !== true && !textAnswer });
  if (!verdict.eligible) {
    deps.logger.log('debug', `left ${toolName} output alone: ${verdict.reason}`, { toolUseId });
    return {};
  }
  // Secrets go before anything is saved, sent to the model or shown to the agent: the saved full output
  // is the file the agent is told to read, so it must not hand a secret back (the secret is still
  // where the tool found it).
  const text = redactSecrets(verdict.text).text;
  const toolResponse = redactValue(payload.toolResponse);
  const toolInput = redactValue(payload.toolInput);
  const paths = entryPaths(deps.home, sessionId, toolUseId);
  const meta: OutputMeta = { toolName, originalChars: text.length, originalLines: text.split('\n').length, fullOutputPath: paths.text };
  const createdAt = new Date(deps.now()).toISOString();
  try {
    saveOriginal(paths, text, { version: 1, sessionId, toolUseId, toolName, toolInput, from: 'hook', savedAt: createdAt, response: toolResponse });
  } catch (err) {
    deps.logger.log('error', `could not save the full output, so it is left whole: ${describeError(err)}`, { toolUseId });
    return {};
  }

  const model = settings.ollama.model;
  let observation: Observation | null = null;
  let lastError: string | null = model === null ? 'no model configured (RECALL_OLLAMA_LLM_MODEL)' : null;
  let attempts = 0;
  let retryLater = false;
  let modelMs: number | null = null;
  const budget = deps.deadlineAt - deps.now();
  if (model !== null && budget >= MIN_MODEL_MS) {
    attempts = 1;
    const asked = deps.now();
    try {
      const prompt = buildObservationPrompt(toolName, toolInput, text, { maxOutputChars: DEFAULT_MAX_PROMPT_OUTPUT_CHARS, minNumCtx: settings.ollama.numCtx });
      // Building the prompt of a huge output takes time too: the model gets what is left after it.
      observation = redactValue(await deps.observe({ host: settings.ollama.host, model, prompt, timeoutMs: Math.max(1, deps.deadlineAt - deps.now()) }));
    } catch (err) {
      lastError = describeError(err);
      retryLater = !isRecallError(err, 'LLM_MODEL_MISSING');
    }
    modelMs = deps.now() - asked;
  } else if (model !== null) {
    lastError = `no time left for the model (${budget} ms)`;
    retryLater = true;
  }

  const observationText = observation ? renderObservationText(observation, meta) : null;
  let answer: Answer = 'none';
  let replacement: string | null = null;
  if (observationText !== null && observationText.length <= text.length * MAX_KEPT_SHARE) {
    answer = 'observation';
    replacement = observationText;
  } else {
    const keep = toolKind(toolName) === 'read' ? 'outline' : 'errors';
    const reduced = renderReductionText(reduceOutput(text, { maxChars: DEFAULT_REDUCTION_CHARS, keep }).text, meta);
    if (reduced.length <= text.length * MAX_KEPT_SHARE) {
      answer = 'reduction';
      replacement = reduced;
    }
  }

  const record: ObservationRecord = {
    version: 1, sessionId, toolUseId, toolName,
    originalChars: text.length, originalLines: meta.originalLines,
    answer, compressedChars: replacement?.length ?? null,
    observation, observationChars: observationText?.length ?? null,
    model, attempts, lastError, createdAt, updatedAt: new Date(deps.now()).toISOString(),
  };
  persistRecord(paths, record, deps.logger);
  if (observation === null && retryLater) await startCompleter(deps, sessionId, toolUseId, lastError);
  deps.logger.log('info', `${toolName} output: ${answer}`, { toolUseId, originalChars: text.length, compressedChars: record.compressedChars, modelMs, lastError });
  if (replacement === null) return {};
  if (blockReason) return { decision: 'block', reason: replacement };
  if (deps.answerStyle === 'modified-result') return { modifiedResult: { textResultForLlm: replacement, resultType: 'success' } };
  // Qwen Code (0.24.4) sends the model the stopReason as the tool's result and goes on with the turn.
  if (deps.answerStyle === 'stop-reason') return { continue: false, stopReason: replacement };
  return hookOutput(toolName, rebuildToolResponse(toolName, toolResponse, replacement));
}

/** The text a tool gave the model: a plain string, or Gemini CLI's `llmContent`; null for other shapes. */
function outputText(response: unknown): string | null {
  if (typeof response === 'string') return response;
  return isObject(response) && typeof response.llmContent === 'string' ? response.llmContent : null;
}

export function hookOutput(toolName: string, updated: unknown): HookAnswer {
  return {
    hookSpecificOutput: {
      hookEventName: 'PostToolUse',
      updatedToolOutput: updated,
      // Claude Code before 2.1.121 replaced MCP tool output only, through this field.
      ...(toolKind(toolName) === 'mcp' ? { updatedMCPToolOutput: updated } : {}),
    },
  };
}

function persistRecord(paths: EntryPaths, record: ObservationRecord, logger: Logger): void {
  try {
    writeRecord(paths, record);
  } catch (err) {
    logger.log('error', `could not write the observation record: ${describeError(err)}`, { toolUseId: record.toolUseId });
  }
}

async function startCompleter(deps: CompressDeps, sessionId: string, toolUseId: string, why: string | null): Promise<void> {
  const started = await deps.spawnCompleter(sessionId, toolUseId).catch(() => false);
  deps.logger.log(started ? 'info' : 'warn', started ? 'observation continues in the background' : 'could not start the background completion', { toolUseId, why });
}
