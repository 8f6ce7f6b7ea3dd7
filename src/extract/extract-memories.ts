/**
 * Extraction: rendered transcript text in, candidate memories out, through one `Llm` call (two when
 * the model or server cannot handle the JSON schema). Redaction is the caller's job.
 */
import { z } from 'zod';
import { isRecallError } from '../core/errors.js';
import { IMPORTANCE_BY_TYPE } from '../core/memory.js';
import type { CandidateMemory } from '../core/memory.js';
import type { Llm } from '../core/ports.js';
import { fillPrompt, loadPrompt } from './load-prompt.js';
import { memoriesAnswerSchema, parseMemoriesAnswer } from './parse-answer.js';

export interface ExtractDeps {
  llm: Llm;
  /** The smallest `num_ctx` to send; raised when the prompt needs more. */
  minNumCtx: number;
  /** Most memories kept; the prompt says so, and the least important of an answer past it are dropped. */
  maxMemories: number;
}

/** The session as the model sees it, and the user's first request (for the trace of a session with nothing to keep). */
export interface ExtractInput {
  transcript: string;
  firstRequest: string | null;
}

export interface Extraction {
  memories: CandidateMemory[];
  /** Memories the model gave past `maxMemories`, left out. */
  dropped: number;
}

/** Tokens kept free for the answer on top of the prompt estimate. */
const ANSWER_TOKENS = 1024;
/** Characters per token assumed for the estimate; conservative for code and English. */
const CHARS_PER_TOKEN = 3;

let answerSchema: Record<string, unknown> | undefined;

/** The JSON schema of `{"memories":[{content,type}]}` sent as Ollama's `format` (derived from the zod schema). */
export function memoriesAnswerJsonSchema(): Record<string, unknown> {
  if (!answerSchema) {
    const { $schema: _dialect, ...schema } = z.toJSONSchema(memoriesAnswerSchema) as Record<string, unknown>;
    answerSchema = schema;
  }
  return answerSchema;
}

/** max(minNumCtx, prompt chars / 3 + 1024), rounded up to a multiple of 1024. */
export function estimateNumCtx(promptChars: number, minNumCtx: number): number {
  const needed = Math.ceil(promptChars / CHARS_PER_TOKEN) + ANSWER_TOKENS;
  return Math.max(minNumCtx, Math.ceil(needed / 1024) * 1024);
}

/**
 * The `max` most important memories (by type; the model's order breaks ties), at most one of type session,
 * most important first.
 */
export function capMemories(memories: readonly CandidateMemory[], max: number): CandidateMemory[] {
  let sessions = 0;
  return memories
    .map((memory, order) => ({ memory, order }))
    .filter(({ memory }) => memory.type !== 'session' || (sessions += 1) === 1)
    .sort((a, b) => b.memory.importance - a.memory.importance || a.order - b.order)
    .slice(0, Math.max(0, max))
    .map(({ memory }) => memory);
}

/** Exactly what the model is sent for a rendered transcript: the system prompt, the prompt, and the context size. */
export interface ExtractionPrompt {
  system: string;
  prompt: string;
  numCtx: number;
}

export async function buildExtractionPrompt(transcript: string, { minNumCtx, maxMemories }: Pick<ExtractDeps, 'minNumCtx' | 'maxMemories'>): Promise<ExtractionPrompt> {
  const [systemTemplate, template] = await Promise.all([loadPrompt('extract-memories.system'), loadPrompt('extract-memories.user')]);
  const system = fillPrompt(systemTemplate, { maxMemories: String(maxMemories) });
  const prompt = fillPrompt(template, { transcript });
  return { system, prompt, numCtx: estimateNumCtx(system.length + prompt.length, minNumCtx) };
}

/**
 * Asks the model for memories with the answer's JSON schema as `format`. If that call fails with
 * LLM_BAD_OUTPUT (server refused the schema) or its answer cannot be parsed, asks once more without
 * the schema. An answer with no usable memory yields one low-importance `session` memory naming the user's
 * first request (never any tool output), so the session still leaves a trace. Throws RecallError (LLM_*)
 * from the Llm or the second parse.
 */
export async function extractMemories(input: ExtractInput, { llm, minNumCtx, maxMemories }: ExtractDeps): Promise<Extraction> {
  const { system, prompt, numCtx } = await buildExtractionPrompt(input.transcript, { minNumCtx, maxMemories });

  let memories: CandidateMemory[];
  try {
    memories = parseMemoriesAnswer(await llm.chat({ system, prompt, schema: memoriesAnswerJsonSchema(), numCtx })).memories;
  } catch (err) {
    if (!isRecallError(err, 'LLM_BAD_OUTPUT')) throw err;
    memories = parseMemoriesAnswer(await llm.chat({ system, prompt, numCtx })).memories;
  }
  if (memories.length === 0) return { memories: [emptySessionMemory(input.firstRequest)], dropped: 0 };
  const kept = capMemories(memories, maxMemories);
  return { memories: kept, dropped: memories.length - kept.length };
}

/** `Session with no durable memories: <the user's first request>`. */
export function emptySessionMemory(firstRequest: string | null): CandidateMemory {
  return {
    content: firstRequest ? `Session with no durable memories: ${firstRequest}` : 'Session with no durable memories.',
    type: 'session',
    importance: IMPORTANCE_BY_TYPE.session,
  };
}
