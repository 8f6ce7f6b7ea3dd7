/**
 * The resume-time transform of a Claude Code transcript: each chosen tool_result (and the line's
 * `toolUseResult`) gets its compressed text, each chosen file-writing call its shortened input,
 * `sessionId` fields get the new session's id, and every other byte of every other line stays as
 * it was (uuid/parentUuid chain included). Pure.
 */
import { NEVER_COMPRESSED } from './eligibility.js';
import type { InputReplacement } from './resume-inputs.js';
import { rebuildToolResponse } from './tool-shapes.js';
import { isObject } from '../core/is-object.js';

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

export interface Replacement {
  ref: ToolResultRef;
  text: string;
}

export interface ForkedLines {
  /**
   * The new file in order: views of the input lines, the new ids, the rebuilt lines and newlines.
   * Written with one gathered write; nothing of the input is copied.
   */
  chunks: Buffer[];
  /** Bytes in `chunks`. */
  size: number;
  /** Each rebuilt line as it will be written, by line index. */
  rebuilt: Map<number, Buffer>;
}

/**
 * The new transcript. A line without a replacement is its input bytes, apart from its
 * `"sessionId": "<old>"` pairs; a line with one is its record with the new results, serialised
 * again. (A 12.5 MB transcript is 12,000 lines: copying them, or a buffer per line, cost more than
 * the transform itself.)
 */
export function applyReplacements(lines: readonly Buffer[], records: readonly Json[], replacements: readonly Replacement[], sessionIds: ReadonlyMap<string, string>, inputs: readonly InputReplacement[] = []): ForkedLines {
  const byLine = new Map<number, Replacement[]>();
  for (const r of replacements) byLine.set(r.ref.lineIndex, [...(byLine.get(r.ref.lineIndex) ?? []), r]);
  const inputsByLine = new Map<number, InputReplacement[]>();
  for (const r of inputs) inputsByLine.set(r.use.lineIndex, [...(inputsByLine.get(r.use.lineIndex) ?? []), r]);
  const rules = sessionIdRules(sessionIds);
  const hits = findSessionIds(lines, rules);
  const chunks: Buffer[] = [];
  const rebuilt = new Map<number, Buffer>();
  let size = 0;
  lines.forEach((line, i) => {
    const mine = byLine.get(i);
    const myInputs = inputsByLine.get(i);
    const record = records[i];
    if ((mine || myInputs) && record) {
      const json = Buffer.from(JSON.stringify(replaceInRecord(record, mine ?? [], myInputs ?? [])));
      const pieces = rewritten(json, findSessionIds([json], rules)[0]!);
      const whole = pieces.length === 1 ? pieces[0]! : Buffer.concat(pieces);
      rebuilt.set(i, whole);
      chunks.push(whole);
      size += whole.length;
    } else {
      for (const piece of rewritten(line, hits[i]!)) {
        chunks.push(piece);
        size += piece.length;
      }
    }
    chunks.push(NEWLINE);
    size += 1;
  });
  return { chunks, size, rebuilt };
}

const NEWLINE = Buffer.from('\n');
/** The record with its chosen results and inputs replaced; what is not replaced is shared, never changed. */
function replaceInRecord(record: Json, replacements: readonly Replacement[], inputs: readonly InputReplacement[]): Json {
  const message = record.message as Json;
  const content = [...(message.content as unknown[])];
  const copy: Json = { ...record, message: { ...message, content } };
  for (const { use, input } of inputs) content[use.blockIndex] = { ...(content[use.blockIndex] as Json), input };
  for (const { ref, text } of replacements) {
    content[ref.blockIndex] = { ...(content[ref.blockIndex] as Json), content: ref.contentForm === 'string' ? text : [{ type: 'text', text }] };
    // An edit tool's structured result is the edit (file, patch), not what the model read: it stays.
    if (ref.toolUseResult !== undefined && !NEVER_COMPRESSED.has(ref.toolName)) copy.toolUseResult = rebuildToolResponse(ref.toolName, ref.toolUseResult, text);
  }
  return copy;
}

/** One line with its `"sessionId": "<old>"` pairs rewritten (the rule applyReplacements applies to every line). */
export function rewriteSessionIds(line: string, sessionIds: ReadonlyMap<string, string>): string {
  const bytes = Buffer.from(line);
  return Buffer.concat(rewritten(bytes, findSessionIds([bytes], sessionIdRules(sessionIds))[0]!)).toString('utf8');
}

/** The line's pieces with each old id swapped for the new one: views of the line and the new ids. */
function rewritten(line: Buffer, hits: readonly IdHit[]): Buffer[] {
  if (hits.length === 0) return [line];
  const pieces: Buffer[] = [];
  let copied = 0;
  for (const { index, rule } of hits) {
    pieces.push(line.subarray(copied, index), rule.to);
    copied = index + rule.from.length;
  }
  pieces.push(line.subarray(copied));
  return pieces;
}

interface IdRule {
  /** The old id as a line holds it: quoted and JSON-escaped. */
  from: Buffer;
  to: Buffer;
}

function sessionIdRules(sessionIds: ReadonlyMap<string, string>): IdRule[] {
  return [...sessionIds].filter(([from, to]) => from !== to).map(([from, to]) => ({ from: Buffer.from(JSON.stringify(from)), to: Buffer.from(JSON.stringify(to)) }));
}

interface IdHit {
  /** Offset of the quoted old id in its line. */
  index: number;
  rule: IdRule;
}

/**
 * Per line, where `"sessionId"<ws>:<ws>"<old id>"` values start, in order. It looks for the quoted
 * id, then checks the key before it: an unescaped quote cannot occur inside a JSON string, so only
 * keys match, and between the tokens of a valid JSON line only JSON whitespace can stand. Lines
 * that are views of one buffer in order (a snapshot's lines) are searched in one pass over it, not
 * line by line: one search call per id found instead of two or more per line. A hit must lie
 * inside one line, whatever sits between lines.
 */
function findSessionIds(lines: readonly Buffer[], rules: readonly IdRule[]): IdHit[][] {
  const hits: IdHit[][] = lines.map(() => []);
  if (rules.length === 0) return hits;
  for (let first = 0; first < lines.length; ) {
    let last = first;
    while (last + 1 < lines.length && lines[last + 1]!.buffer === lines[first]!.buffer && lines[last + 1]!.byteOffset >= lines[last]!.byteOffset + lines[last]!.length) last += 1;
    const start = lines[first]!.byteOffset;
    const span = Buffer.from(lines[first]!.buffer, start, lines[last]!.byteOffset + lines[last]!.length - start);
    for (const rule of rules) {
      let k = first;
      for (let at = span.indexOf(rule.from); at !== -1; ) {
        const offset = start + at;
        while (k <= last && lines[k]!.byteOffset + lines[k]!.length <= offset) k += 1;
        if (k > last) break;
        const line = lines[k]!;
        const index = offset - line.byteOffset;
        if (index >= 0 && index + rule.from.length <= line.length && followsSessionIdKey(line, index)) {
          hits[k]!.push({ index, rule });
          at = span.indexOf(rule.from, at + rule.from.length);
        } else at = span.indexOf(rule.from, at + 1);
      }
    }
    first = last + 1;
  }
  if (rules.length > 1) for (const found of hits) found.sort((a, b) => a.index - b.index);
  return hits;
}

const SESSION_ID_KEY = Buffer.from('"sessionId"');

/** `"sessionId"`, JSON whitespace, `:`, JSON whitespace, right before `at`. */
function followsSessionIdKey(line: Buffer, at: number): boolean {
  let i = skipWhitespaceBack(line, at - 1);
  if (i < 0 || line[i] !== 0x3a) return false;
  i = skipWhitespaceBack(line, i - 1);
  const start = i + 1 - SESSION_ID_KEY.length;
  return start >= 0 && line.compare(SESSION_ID_KEY, 0, SESSION_ID_KEY.length, start, i + 1) === 0;
}

function skipWhitespaceBack(line: Buffer, from: number): number {
  let i = from;
  while (i >= 0 && (line[i] === 0x20 || line[i] === 0x09 || line[i] === 0x0d)) i -= 1;
  return i;
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
