/**
 * The prompt that asks the local model for an observation of one tool output. Kept in code rather
 * than in prompts/: the PostToolUse hook builds it on every call and a constant costs no file read.
 * Pure.
 */
import { reduceOutput } from './reduce-output.js';
import { toolKind } from './tool-shapes.js';

export const OBSERVATION_SYSTEM = [
  'You compress one tool output from a coding agent\'s session into a short observation. The agent',
  'reads your observation INSTEAD of the output, so it must carry every detail the agent may act on.',
  '',
  'Keep exactly as written: file paths, line numbers, function/class/test/variable names, commands,',
  'error messages (verbatim, first line), exit codes, versions, counts and other numbers.',
  'Drop repetition, progress noise, boilerplate and anything the agent cannot act on.',
  'Never invent, guess or generalise beyond the output. Be brief.',
  '',
  'Answer with one JSON object and nothing else:',
  '{"type": "discovery" | "bugfix" | "feature" | "refactor" | "change" | "decision",',
  ' "title": "<= 80 chars, what this output shows",',
  ' "subtitle": "<= 120 chars, the key result (e.g. \'4 of 5 tests fail in project_review_live_test.exs\')",',
  ' "narrative": "1-3 sentences",',
  ' "facts": ["up to 12 short self-contained statements, each with its exact paths, names and numbers"],',
  ' "concepts": ["up to 5 keywords"],',
  ' "files": ["paths that appear in the output"]}',
].join('\n');

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
  const body = reduceOutput(text, { maxChars: options.maxOutputChars, keep, maxLineChars: 2_000 }).text;
  const user = [
    `Tool: ${toolName}`,
    `Input: ${describeInput(toolName, toolInput)}`,
    `Output (${text.length} characters${body.length < text.length ? '; terminal noise, repeats and, if long, the middle left out' : ''}):`,
    '<output>',
    body,
    '</output>',
  ].join('\n');
  const promptTokens = Math.ceil((OBSERVATION_SYSTEM.length + user.length) / 3);
  const numCtx = Math.min(32_768, Math.max(options.minNumCtx, roundUp(promptTokens + 1_024, 1_024)));
  return { system: OBSERVATION_SYSTEM, user, numCtx };
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
