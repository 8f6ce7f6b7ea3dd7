/**
 * Reads the extraction model's answer into candidate memories. Pure. Small local models wrap
 * JSON in fences or chatter, cut it short, or miscase a type; this accepts all of that and drops
 * only the items that are unusable.
 */
import { z } from 'zod';
import { RecallError } from '../core/errors.js';
import { redactSecrets } from '../redact/redact-secrets.js';
import { isObject } from '../core/is-object.js';
import { balancedJsonValues, jsonCandidates, withoutThinking } from '../core/lenient-json.js';
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
  const cleaned = withoutThinking(text);
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
  if (!isObject(item)) return null;
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
  const loose = [...balancedJsonValues(text)].filter((value) => isObject(value) && 'content' in value);
  return loose.length > 0 ? loose : empty;
}

function asMemoryList(value: unknown): unknown[] | null {
  if (Array.isArray(value)) return value.length === 0 || value.some(isObject) ? value : null;
  if (isObject(value) && Array.isArray(value.memories)) return value.memories;
  return null;
}
