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
}

/** Tokens kept free for the answer on top of the prompt estimate. */
const ANSWER_TOKENS = 1024;
/** Characters per token assumed for the estimate; conservative for code and English. */
const CHARS_PER_TOKEN = 3;
const SUMMARY_MAX_CHARS = 160;

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
 * Asks the model for memories with the answer's JSON schema as `format`. If that call fails with
 * LLM_BAD_OUTPUT (server refused the schema) or its answer cannot be parsed, asks once more without
 * the schema. An answer with no usable memory yields one low-importance `session` memory, so the
 * session still leaves a trace. Throws RecallError (LLM_*) from the Llm or the second parse.
 */
export async function extractMemories(transcriptText: string, { llm, minNumCtx }: ExtractDeps): Promise<CandidateMemory[]> {
  const [system, template] = await Promise.all([loadPrompt('extract-memories.system'), loadPrompt('extract-memories.user')]);
  const prompt = fillPrompt(template, { transcript: transcriptText });
  const numCtx = estimateNumCtx(system.length + prompt.length, minNumCtx);

  let memories: CandidateMemory[];
  try {
    memories = parseMemoriesAnswer(await llm.chat({ system, prompt, schema: memoriesAnswerJsonSchema(), numCtx })).memories;
  } catch (err) {
    if (!isRecallError(err, 'LLM_BAD_OUTPUT')) throw err;
    memories = parseMemoriesAnswer(await llm.chat({ system, prompt, numCtx })).memories;
  }
  return memories.length > 0 ? memories : [emptySessionMemory(transcriptText)];
}

/** `Session with no durable memories: <first user request, at most 160 chars>`. */
export function emptySessionMemory(transcriptText: string): CandidateMemory {
  const request = firstUserRequest(transcriptText);
  return {
    content: request ? `Session with no durable memories: ${request}` : 'Session with no durable memories.',
    type: 'session',
    importance: IMPORTANCE_BY_TYPE.session,
  };
}

const INLINE_USER = [/^\s*\[(?:user|human)\]\s*:?\s*(.*)$/i, /^\s*(?:\*\*)?(?:user|human)(?:\*\*)?\s*:(?:\*\*)?\s*(.*)$/i];
const HEADING_USER = /^\s*#{1,6}\s*(?:user|human)\b/i;
const SPEAKERS = '(?:user|human|assistant|agent|system|tool)';
const SPEAKER_LINE = new RegExp(`^\\s*(?:#{1,6}\\s*${SPEAKERS}\\b|\\[${SPEAKERS}\\]|(?:\\*\\*)?${SPEAKERS}(?:\\*\\*)?\\s*:)`, 'i');

/**
 * The first paragraph of the first user turn, whitespace collapsed, cut to 160 characters.
 * Recognises `User: ...` (what src/transcript/render-transcript.ts writes), `Human: ...`,
 * `[user] ...`, `**User:** ...` and `## User` headings; without any of these, the first
 * non-empty line.
 */
export function firstUserRequest(transcriptText: string): string {
  const lines = transcriptText.split(/\r?\n/);
  let found: string | undefined;
  for (let i = 0; i < lines.length && found === undefined; i++) {
    const line = lines[i] ?? '';
    const inline = INLINE_USER.map((re) => re.exec(line)).find((m) => m !== null);
    if (!inline && !HEADING_USER.test(line)) continue;
    const rest = inline?.[1]?.trim() ?? '';
    found = [rest, ...paragraphLines(lines, i + 1, rest !== '')].join(' ');
  }
  found ??= lines.find((line) => line.trim() !== '') ?? '';
  return cut(found.replace(/\s+/g, ' ').trim(), SUMMARY_MAX_CHARS);
}

/** The lines after `from` up to a blank line (once text has started) or the next speaker. */
function paragraphLines(lines: readonly string[], from: number, started: boolean): string[] {
  const paragraph: string[] = [];
  for (let i = from; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (SPEAKER_LINE.test(line)) break;
    if (line.trim() === '') {
      if (started || paragraph.length > 0) break;
      continue;
    }
    paragraph.push(line);
  }
  return paragraph;
}

function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1).trimEnd()}…`;
}
