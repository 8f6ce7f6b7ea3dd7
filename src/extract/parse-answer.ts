/**
 * Reads the extraction model's answer into candidate memories. Pure. Small local models wrap
 * JSON in fences or chatter, cut it short, or miscase a type; this accepts all of that and drops
 * only the items that are unusable.
 */
import { z } from 'zod';
import { RecallError } from '../core/errors.js';
import { redactSecrets } from '../redact/redact-secrets.js';
import { IMPORTANCE_BY_TYPE, MEMORY_TYPES, isMemoryType } from '../core/memory.js';
import type { CandidateMemory, MemoryType } from '../core/memory.js';

/** The answer's shape: sent to the model as JSON schema and used to validate each item. */
export const memoryItemSchema = z.object({
  content: z.string().describe('One self-contained sentence, e.g. "You MUST use pnpm, not npm."'),
  type: z.enum(MEMORY_TYPES),
});
export const memoriesAnswerSchema = z.object({ memories: z.array(memoryItemSchema) });

/** Shorter contents (after trimming) are noise, not memories. */
export const MIN_CONTENT_CHARS = 10;

const TYPE_SYNONYMS: Readonly<Record<string, MemoryType>> = {
  rule: 'golden_rule',
  rules: 'golden_rule',
  golden: 'golden_rule',
  goldenrule: 'golden_rule',
  golden_rules: 'golden_rule',
  preferences: 'preference',
  decisions: 'decision',
  patterns: 'pattern',
  convention: 'pattern',
  summary: 'session',
  session_summary: 'session',
};

export interface ParsedAnswer {
  memories: CandidateMemory[];
  /** Items present in the answer but unusable (wrong shape, unknown type, too short). */
  dropped: number;
}

/** Throws RecallError('LLM_BAD_OUTPUT') when no memory list can be found in the text. */
export function parseMemoriesAnswer(text: string): ParsedAnswer {
  const cleaned = text.replace(/<think>[\s\S]*?<\/think>/gi, '').trim();
  const items = findMemoryList(cleaned);
  if (items === null) {
    throw new RecallError('LLM_BAD_OUTPUT', `model answer holds no memory list: ${JSON.stringify(redactSecrets(cleaned.slice(0, 2_000)).text.slice(0, 120))}`);
  }
  const memories: CandidateMemory[] = [];
  for (const item of items) {
    const memory = toCandidate(item);
    if (memory) memories.push(memory);
  }
  return { memories, dropped: items.length - memories.length };
}

function toCandidate(item: unknown): CandidateMemory | null {
  if (!isRecord(item)) return null;
  const parsed = memoryItemSchema.safeParse({ content: item.content, type: normalizeType(item.type) });
  if (!parsed.success) return null;
  // Redacted before its lines are joined: key blocks, credential files and YAML values are found by their line shape.
  const content = redactSecrets(parsed.data.content).text.replace(/\s+/g, ' ').trim();
  if (content.length < MIN_CONTENT_CHARS) return null;
  return { content, type: parsed.data.type, importance: IMPORTANCE_BY_TYPE[parsed.data.type] };
}

function normalizeType(raw: unknown): unknown {
  if (typeof raw !== 'string') return raw;
  const key = raw.trim().toLowerCase().replace(/[\s-]+/g, '_');
  return isMemoryType(key) ? key : (TYPE_SYNONYMS[key] ?? key);
}

/**
 * The first non-empty memory list in the text; failing that, every complete memory-like object (a
 * cut-off answer); failing that, an empty list if there was one. An empty `[]` in chatter (a
 * markdown `- [ ]` checkbox) must not hide the real list after it.
 */
function findMemoryList(text: string): unknown[] | null {
  let empty: unknown[] | null = null;
  for (const candidate of jsonCandidates(text)) {
    const list = asMemoryList(candidate);
    if (list && list.length > 0) return list;
    empty ??= list;
  }
  const loose = balancedSlices(text)
    .map(parseLenient)
    .filter((value) => isRecord(value) && 'content' in value);
  return loose.length > 0 ? loose : empty;
}

function* jsonCandidates(text: string): Generator<unknown> {
  yield parseLenient(text);
  for (const fence of text.matchAll(/```[\w-]*[^\S\n]*\n?([\s\S]*?)```/g)) yield parseLenient(fence[1] ?? '');
  for (const slice of balancedSlices(text)) yield parseLenient(slice);
}

function asMemoryList(value: unknown): unknown[] | null {
  if (Array.isArray(value)) return value.length === 0 || value.some(isRecord) ? value : null;
  if (isRecord(value) && Array.isArray(value.memories)) return value.memories;
  return null;
}

const NOT_JSON = Symbol('not json');

/** JSON.parse, retried once with trailing commas removed; NOT_JSON when both fail. */
function parseLenient(text: string): unknown {
  const trimmed = text.trim();
  if (!trimmed.startsWith('{') && !trimmed.startsWith('[')) return NOT_JSON;
  try {
    return JSON.parse(trimmed);
  } catch {
    try {
      return JSON.parse(withoutTrailingCommas(trimmed));
    } catch {
      return NOT_JSON;
    }
  }
}

/** Every balanced `{...}` or `[...]` slice, outermost first, in order of their opening bracket. */
function balancedSlices(text: string, maxOpenings = 500): string[] {
  const slices: string[] = [];
  let openings = 0;
  for (let start = 0; start < text.length && openings < maxOpenings; start++) {
    const ch = text[start];
    if (ch !== '{' && ch !== '[') continue;
    openings++;
    const end = matchingBracket(text, start);
    if (end > start) slices.push(text.slice(start, end + 1));
  }
  return slices;
}

/** Index of the bracket closing the one at `start`, skipping strings; -1 when it never closes. */
function matchingBracket(text: string, start: number): number {
  const stack: string[] = [];
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      if (ch === '\\') i++;
      else if (ch === '"') inString = false;
    } else if (ch === '"') inString = true;
    else if (ch === '{') stack.push('}');
    else if (ch === '[') stack.push(']');
    else if (ch === '}' || ch === ']') {
      if (stack.pop() !== ch) return -1;
      if (stack.length === 0) return i;
    }
  }
  return -1;
}

/** Drops commas directly before `}` or `]`, outside strings. */
function withoutTrailingCommas(text: string): string {
  const closerAhead = /\s*[}\]]/y;
  let out = '';
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] ?? '';
    if (inString) {
      out += ch;
      if (ch === '\\') out += text[++i] ?? '';
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"') inString = true;
    closerAhead.lastIndex = i + 1;
    if (ch === ',' && closerAhead.test(text)) continue;
    out += ch;
  }
  return out;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
