/** Which tool outputs Endless Mode may replace, and why not when it may not. Pure. */
import { extractToolText, isStructuredResponse, toolKind } from './tool-shapes.js';

/** A replacement must be at most this share of the original to be worth the agent's detour. */
export const MAX_KEPT_SHARE = 0.75;

/** Tools whose output the agent edits against or that carry no output worth compressing. */
export const NEVER_COMPRESSED: ReadonlySet<string> = new Set(['Edit', 'Write', 'MultiEdit', 'NotebookEdit']);

export interface Thresholds {
  minChars: number;
  readMinChars: number;
  denylist: readonly string[];
}

export type Verdict =
  | { eligible: true; text: string }
  | { eligible: false; reason: string };

export interface JudgeOptions {
  /**
   * A live hook must answer in the tool's structured shape: a plain-string response of a built-in
   * tool cannot be mirrored back (Claude Code drops it). Transcripts hold such strings for failed calls.
   */
  requireStructured: boolean;
}

export function judgeToolOutput(toolName: string, response: unknown, thresholds: Thresholds, options: JudgeOptions): Verdict {
  const refusal = refuseByName(toolName, thresholds.denylist);
  if (refusal !== null) return { eligible: false, reason: refusal };
  if (options.requireStructured && toolKind(toolName) !== 'mcp' && !isStructuredResponse(response)) {
    return { eligible: false, reason: `${toolName} output is not in its structured shape` };
  }
  const text = extractToolText(toolName, response);
  if (text === null) return { eligible: false, reason: `unknown ${toolName} output shape` };
  return judgeText(toolName, text, thresholds);
}

/** The same rules for a text already in hand (a tool result read back from a transcript). */
export function judgeText(toolName: string, text: string, thresholds: Thresholds): Verdict {
  const refusal = refuseByName(toolName, thresholds.denylist);
  if (refusal !== null) return { eligible: false, reason: refusal };
  const min = minCharsFor(toolName, thresholds);
  if (text.length < min) return { eligible: false, reason: `${text.length} chars, under ${min}` };
  if (looksBinary(text)) return { eligible: false, reason: 'output looks binary' };
  return { eligible: true, text };
}

export function minCharsFor(toolName: string, thresholds: Thresholds): number {
  return toolKind(toolName) === 'read' ? Math.max(thresholds.readMinChars, thresholds.minChars) : thresholds.minChars;
}

/** Why a tool is never compressed, or null when its name allows it. */
export function refuseByName(toolName: string, denylist: readonly string[]): string | null {
  if (NEVER_COMPRESSED.has(toolName)) return `${toolName} output is never compressed`;
  if (isDenied(toolName, denylist)) return `${toolName} is on the denylist`;
  if (toolKind(toolName) === null) return `unknown tool ${toolName}`;
  return null;
}

/**
 * Why a call's input rules compression out, or null: the agent reading a full output recall saved
 * (compressing that again would send it in circles), or a Read of an explicit range (the agent
 * asked for exactly those lines, usually to edit them).
 */
export function refuseByInput(toolName: string, toolInput: unknown, savedRoot: string): string | null {
  if (typeof toolInput !== 'object' || toolInput === null) return null;
  if (JSON.stringify(toolInput).includes(savedRoot)) return 'the call reads an output recall saved';
  const input = toolInput as Record<string, unknown>;
  if (toolKind(toolName) === 'read' && (input.offset !== undefined || input.limit !== undefined)) return 'a Read of an explicit range';
  return null;
}

/** Exact names, or prefixes ending in `*` (`mcp__github__*`). */
export function isDenied(toolName: string, denylist: readonly string[]): boolean {
  return denylist.some((entry) => (entry.endsWith('*') ? toolName.startsWith(entry.slice(0, -1)) : toolName === entry));
}

/** NUL bytes, or more than 1% replacement characters (bytes that were not UTF-8). */
export function looksBinary(text: string): boolean {
  if (text.includes('\u0000')) return true;
  let replacements = 0;
  for (let i = text.indexOf('\uFFFD'); i !== -1; i = text.indexOf('\uFFFD', i + 1)) replacements += 1;
  return replacements > text.length / 100;
}
