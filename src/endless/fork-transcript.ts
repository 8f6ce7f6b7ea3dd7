/**
 * The resume-time transform of a Claude Code transcript: each chosen tool_result (and the line's
 * `toolUseResult`) gets its compressed text, `sessionId` fields get the new session's id, and every
 * other byte of every other line stays as it was (uuid/parentUuid chain included). Pure.
 */
import { judgeText, refuseByInput, type Thresholds } from './eligibility.js';
import { rebuildToolResponse } from './tool-shapes.js';

type Json = Record<string, unknown>;

export interface ToolResultRef {
  lineIndex: number;
  blockIndex: number;
  toolUseId: string;
  /** From the matching tool_use; `unknown` when the transcript has none. */
  toolName: string;
  toolInput: unknown;
  /** The text the model saw. */
  text: string;
  contentForm: 'string' | 'blocks';
  hasImage: boolean;
  isError: boolean;
  /** The line's structured result, when the line holds this result alone. */
  toolUseResult: unknown;
}

/** Marks text recall already put in place of an output; it is never compressed twice. */
export const COMPRESSED_PREFIX = '[recall: ';

export function findToolResults(records: readonly Json[]): ToolResultRef[] {
  const uses = new Map<string, { name: string; input: unknown }>();
  const refs: ToolResultRef[] = [];
  records.forEach((record, lineIndex) => {
    const content = messageContent(record);
    if (!content) return;
    if (record.type === 'assistant') {
      for (const block of content) {
        if (isObject(block) && block.type === 'tool_use' && typeof block.id === 'string') {
          uses.set(block.id, { name: typeof block.name === 'string' ? block.name : 'unknown', input: block.input });
        }
      }
      return;
    }
    const results = content.filter((b) => isObject(b) && b.type === 'tool_result');
    content.forEach((block, blockIndex) => {
      if (!isObject(block) || block.type !== 'tool_result' || typeof block.tool_use_id !== 'string') return;
      const use = uses.get(block.tool_use_id);
      const { text, form, hasImage } = resultText(block.content);
      refs.push({
        lineIndex, blockIndex, toolUseId: block.tool_use_id,
        toolName: use?.name ?? 'unknown', toolInput: use?.input ?? null,
        text, contentForm: form, hasImage, isError: block.is_error === true,
        toolUseResult: results.length === 1 ? record.toolUseResult : undefined,
      });
    });
  });
  return refs;
}

/**
 * Eligible results, minus the last `keepRecent` results of the session, images, recall's own text
 * and calls that read what recall saved (`savedRoot`) or an explicit range of a file.
 */
export function selectCompressible(refs: readonly ToolResultRef[], thresholds: Thresholds, keepRecent: number, savedRoot: string | null = null): ToolResultRef[] {
  const cutoff = Math.max(0, refs.length - keepRecent);
  return refs.filter(
    (ref, i) =>
      i < cutoff &&
      !ref.hasImage &&
      !ref.text.startsWith(COMPRESSED_PREFIX) &&
      (savedRoot === null || refuseByInput(ref.toolName, ref.toolInput, savedRoot) === null) &&
      judgeText(ref.toolName, ref.text, thresholds).eligible,
  );
}

export interface Replacement {
  ref: ToolResultRef;
  text: string;
}

/**
 * The new lines. Lines without a replacement are the input lines byte for byte, apart from their
 * `"sessionId": "<old>"` pairs (found as text: inside a JSON string the quotes would be escaped).
 */
export function applyReplacements(lines: readonly string[], records: readonly Json[], replacements: readonly Replacement[], sessionIds: ReadonlyMap<string, string>): string[] {
  const byLine = new Map<number, Replacement[]>();
  for (const r of replacements) byLine.set(r.ref.lineIndex, [...(byLine.get(r.ref.lineIndex) ?? []), r]);
  const rewrite = sessionIdRewriter(sessionIds);
  return lines.map((line, i) => {
    const mine = byLine.get(i);
    const record = records[i];
    return rewrite(mine && record ? JSON.stringify(replaceInRecord(record, mine)) : line);
  });
}

function replaceInRecord(record: Json, replacements: readonly Replacement[]): Json {
  const copy = structuredClone(record);
  const content = messageContent(copy)!;
  for (const { ref, text } of replacements) {
    const block = content[ref.blockIndex] as Json;
    block.content = ref.contentForm === 'string' ? text : [{ type: 'text', text }];
    if (ref.toolUseResult !== undefined) copy.toolUseResult = rebuildToolResponse(ref.toolName, ref.toolUseResult, text);
  }
  return copy;
}

export function rewriteSessionIds(line: string, sessionIds: ReadonlyMap<string, string>): string {
  return sessionIdRewriter(sessionIds)(line);
}

/** One compiled rewrite for many lines. An unescaped quote cannot occur inside a JSON string, so only keys match. */
export function sessionIdRewriter(sessionIds: ReadonlyMap<string, string>): (line: string) => string {
  const rules = [...sessionIds].map(([from, to]) => ({
    // Look for the id as the line holds it, quoted and JSON-escaped: an id with a backslash or a quote differs raw.
    from: JSON.stringify(from),
    pattern: new RegExp(`"sessionId"(\\s*):(\\s*)${escapeRegExp(JSON.stringify(from))}`, 'g'),
    to: JSON.stringify(to),
  }));
  return (line) => {
    let out = line;
    for (const rule of rules) {
      if (out.includes(rule.from)) out = out.replace(rule.pattern, (_m, a: string, b: string) => `"sessionId"${a}:${b}${rule.to}`);
    }
    return out;
  };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Every distinct top-level `sessionId` in the transcript. */
export function sessionIdsOf(records: readonly Json[]): string[] {
  const ids = new Set<string>();
  for (const record of records) if (typeof record.sessionId === 'string' && record.sessionId !== '') ids.add(record.sessionId);
  return [...ids];
}

export function messageContent(record: Json): unknown[] | null {
  const message = record.message;
  return isObject(message) && Array.isArray(message.content) ? message.content : null;
}

function resultText(content: unknown): { text: string; form: 'string' | 'blocks'; hasImage: boolean } {
  if (typeof content === 'string') return { text: content, form: 'string', hasImage: false };
  if (!Array.isArray(content)) return { text: '', form: 'string', hasImage: false };
  const texts: string[] = [];
  let hasImage = false;
  for (const block of content) {
    if (typeof block === 'string') texts.push(block);
    else if (isObject(block) && block.type === 'text' && typeof block.text === 'string') texts.push(block.text);
    else if (isObject(block)) hasImage = true;
  }
  return { text: texts.join('\n\n'), form: 'blocks', hasImage };
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
