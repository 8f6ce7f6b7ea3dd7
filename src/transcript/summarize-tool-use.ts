/**
 * One-line summaries of tool calls (`[tool Bash: npm test]`) and short cuts of tool results.
 * The extractor needs to know what was done, not the full payloads. Pure.
 */
import { redactSecrets } from '../redact/redact-secrets.js';
import { cutEnds, cutText, safeCut } from './cut-text.js';
import { isObject } from '../core/is-object.js';

export const TOOL_SUMMARY_MAX_CHARS = 160;
export const TOOL_RESULT_MAX_CHARS = 300;
/** How much of a long tool result beyond what its cut keeps is redacted with it (see cutToolResult). */
export const CUT_MARGIN = 1_024;

/**
 * Input fields that say most about a call, best first. Claude Code names (command, file_path,
 * pattern, ...) and Factory droid names (Execute.command, Create.file_path, FetchUrl.url, ...)
 * overlap, so one list serves both.
 */
const TELLING_FIELDS: readonly string[] = [
  'command',
  'cmd',
  'file_path',
  'filePath',
  'notebook_path',
  'pattern',
  'patterns',
  'path',
  'directory_path',
  'query',
  'url',
  'description',
  'prompt',
  'skill',
  'task_id',
  'name',
];

/** Collapses all whitespace to single spaces and cuts to `max` characters with an ellipsis. */
export function oneLine(text: string, max: number): string {
  // Redact before cutting: a secret cut in half no longer matches its pattern.
  const flat = redactSecrets(text).text.replace(/\s+/g, ' ').trim();
  return cutText(flat, max, 1);
}

function asText(value: unknown): string | undefined {
  if (typeof value === 'string') return value.trim() === '' ? undefined : value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) {
    const parts = value.filter((v): v is string => typeof v === 'string' && v.trim() !== '');
    return parts.length > 0 ? parts.join(', ') : undefined;
  }
  return undefined;
}

/** The path an apply_patch-style payload touches, if it names one. */
function patchTarget(input: Record<string, unknown>): string | undefined {
  for (const value of Object.values(input)) {
    if (typeof value !== 'string' || !value.includes('*** ')) continue;
    const m = /\*\*\* (?:Update|Add|Delete) File: ([^\n]{1,500})/.exec(value);
    if (m?.[1] !== undefined) return m[1].trim();
  }
  return undefined;
}

function tellingValue(input: Record<string, unknown>): string | undefined {
  const target = patchTarget(input);
  if (target !== undefined) return target;
  for (const key of TELLING_FIELDS) {
    const text = asText(input[key]);
    if (text !== undefined) {
      // A search is only half described by its pattern: say where it looked too.
      if ((key === 'pattern' || key === 'patterns') && typeof input['path'] === 'string') {
        return `${text} in ${input['path']}`;
      }
      return text;
    }
  }
  for (const value of Object.values(input)) {
    const text = asText(value);
    if (text !== undefined) return text;
  }
  return undefined;
}

/** `[tool Bash: npm test]`, `[tool Read: src/x.ts]`, or `[tool Name]` when the input says nothing. */
export function summarizeToolUse(name: unknown, input: unknown): string {
  const toolName = typeof name === 'string' && name.trim() !== '' ? oneLine(name, 80) : 'unknown';
  const record = isObject(input) ? input : {};
  const value = tellingValue(record);
  if (value === undefined) return `[tool ${toolName}]`;
  return `[tool ${toolName}: ${oneLine(value, TOOL_SUMMARY_MAX_CHARS)}]`;
}

/**
 * What a tool result's cut is made from: the whole result when it is short, else its two ends with a margin
 * of CUT_MARGIN characters beyond what the cut keeps (a secret crossing the cut is whole in them, and so is the
 * key or header line just before a value), not the middle the cut drops. The tail carries the result's first
 * line before it, which may be the header of CSV rows: it is redacted with the tail and dropped after.
 */
export type ResultEnds = { whole: string } | { head: string; tail: string; total: number };

export function toolResultEnds(raw: string, max = TOOL_RESULT_MAX_CHARS): ResultEnds {
  if (raw.length <= max + 2 * CUT_MARGIN) return { whole: raw };
  const firstLine = raw.slice(0, Math.min(raw.indexOf('\n') >>> 0, 1_000));
  const tailFrom = safeCut(raw, raw.length - max - CUT_MARGIN);
  return { head: raw.slice(0, safeCut(raw, max + CUT_MARGIN)), tail: `${firstLine}\n${raw.slice(tailFrom)}`, total: raw.length };
}

/** The cut of a tool result from its ends (toolResultEnds): each redacted before it is cut, so a secret cut in half never slips through. */
export function cutResultEnds(ends: ResultEnds, max = TOOL_RESULT_MAX_CHARS): string {
  if ('whole' in ends) return cutText(redactSecrets(ends.whole).text, max, 0.6);
  const head = redactSecrets(ends.head).text;
  const tail = redactSecrets(ends.tail).text;
  return cutEnds(head, tail.slice(tail.indexOf('\n') + 1), ends.total, max, 0.6);
}

/**
 * Cuts a tool result to `max` characters: its head and its tail (where a log says how it ended), with a
 * marker saying how much was left out between them. Only what the cut is made from is redacted.
 */
export function cutToolResult(raw: string, max = TOOL_RESULT_MAX_CHARS): string {
  return cutResultEnds(toolResultEnds(raw, max), max);
}
