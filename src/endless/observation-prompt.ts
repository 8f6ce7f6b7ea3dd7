/**
 * The prompt that asks the local model for an observation of one tool output. The system text lives
 * in prompts/endless-observation.system.md and is read once per process (a small synchronous read,
 * fine on the PostToolUse hook's path). Pure apart from that read.
 */
import { readFileSync } from 'node:fs';
import { redactSecrets } from '../redact/redact-secrets.js';
import { reduceOutput } from './reduce-output.js';
import { toolKind } from './tool-shapes.js';

const SYSTEM_PROMPT_FILE = new URL('../../prompts/endless-observation.system.md', import.meta.url);
let systemPrompt: string | undefined;

export function observationSystemPrompt(): string {
  systemPrompt ??= readFileSync(SYSTEM_PROMPT_FILE, 'utf8').trim();
  return systemPrompt;
}

export interface ObservationPrompt {
  system: string;
  user: string;
  /** `options.num_ctx` large enough for the prompt and the answer. */
  numCtx: number;
}

export interface PromptOptions {
  /** Characters of tool output sent at most; longer output is reduced first (head, tail, errors). */
  maxOutputChars: number;
  /** Minimum context window (the configured `ollama.numCtx`). */
  minNumCtx: number;
}

export const DEFAULT_MAX_PROMPT_OUTPUT_CHARS = 24_000;

export function buildObservationPrompt(toolName: string, toolInput: unknown, text: string, options: PromptOptions): ObservationPrompt {
  const keep = toolKind(toolName) === 'read' ? 'outline' : 'errors';
  // Noise stripped and repeats folded even when it fits: fewer tokens, a faster answer from a small CPU model.
  // Callers hand in redacted text; the body is redacted again after the cut because an entry saved
  // by an older version may not be, and nothing reaches the model unredacted.
  const body = redactSecrets(reduceOutput(text, { maxChars: options.maxOutputChars, keep, maxLineChars: 2_000 }).text).text;
  const user = [
    `Tool: ${toolName}`,
    `Input: ${redactSecrets(describeInput(toolName, toolInput)).text}`,
    `Output (${text.length} characters${body.length < text.length ? '; terminal noise, repeats and, if long, the middle left out' : ''}):`,
    '<output>',
    body,
    '</output>',
  ].join('\n');
  const system = observationSystemPrompt();
  const promptTokens = Math.ceil((system.length + user.length) / 3);
  const numCtx = Math.min(32_768, Math.max(options.minNumCtx, roundUp(promptTokens + 1_024, 1_024)));
  return { system, user, numCtx };
}

/** One line naming what the tool was asked to do. */
export function describeInput(toolName: string, toolInput: unknown): string {
  if (typeof toolInput !== 'object' || toolInput === null) return '(none)';
  const input = toolInput as Record<string, unknown>;
  const pick = (...keys: string[]): string | undefined => {
    for (const key of keys) if (typeof input[key] === 'string' && input[key] !== '') return input[key];
    return undefined;
  };
  const named = pick('command', 'file_path', 'pattern', 'url', 'query', 'description', 'task_id');
  const extra = toolName === 'Grep' ? pick('path', 'glob') : toolName === 'WebFetch' ? pick('prompt') : undefined;
  const line = named !== undefined ? `${named}${extra ? ` (${extra})` : ''}` : JSON.stringify(input);
  return line.length <= 400 ? line.replace(/\s+/g, ' ') : `${line.slice(0, 400).replace(/\s+/g, ' ')}…`;
}

function roundUp(n: number, step: number): number {
  return Math.ceil(n / step) * step;
}
