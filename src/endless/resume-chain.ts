/**
 * The lines `claude --resume` loads from a Claude Code transcript: the chain of the newest message,
 * followed back by `parentUuid`, up to the last compaction (a `compact_boundary` system entry; the
 * compaction summary after it is part of the chain). Parallel tool calls hang off that chain: Claude
 * Code writes each tool_use of one answer as its own entry (same `message.id`) and each result under
 * its own call, so the other entries of an answer on the chain, and every result of its calls, are
 * loaded with it (the API needs each call's result). Side chains (subagents) and branches left by a
 * rewind are not loaded. A transcript without uuids (other agents, simplified files) loads every
 * line after its last compaction boundary. Pure.
 */
import { isObject } from '../core/is-object.js';

type Json = Record<string, unknown>;

/** Indices of the lines on the resumed chain, in file order. */
export function resumeChain(records: readonly Json[]): number[] {
  const leaf = newestMessage(records);
  if (leaf === -1) return [];
  if (typeof records[leaf]!.uuid !== 'string') return afterLastBoundary(records);
  const byUuid = new Map<string, number>();
  records.forEach((record, i) => {
    if (typeof record.uuid === 'string') byUuid.set(record.uuid, i);
  });
  const chain: number[] = [];
  const seen = new Set<number>();
  for (let at: number | undefined = leaf; at !== undefined && !seen.has(at); ) {
    const record: Json = records[at]!;
    if (isCompactBoundary(record)) break;
    seen.add(at);
    chain.push(at);
    at = typeof record.parentUuid === 'string' ? byUuid.get(record.parentUuid) : undefined;
  }
  // The walk went backwards: its last line is the earliest.
  return withParallelCalls(records, seen, chain[chain.length - 1]!);
}

/** The chain plus the sibling entries of its answers and the results of their calls, in file order. */
function withParallelCalls(records: readonly Json[], chain: Set<number>, from: number): number[] {
  const answers = new Set<string>();
  for (const i of chain) {
    const id = assistantMessageId(records[i]!);
    if (id !== null) answers.add(id);
  }
  const calls = new Set<string>();
  const loaded = new Set(chain);
  for (let i = from; i < records.length; i += 1) {
    const record = records[i]!;
    if (record.isSidechain === true) continue;
    const id = assistantMessageId(record);
    if (id === null || !answers.has(id)) continue;
    loaded.add(i);
    for (const block of blocksOf(record)) if (block.type === 'tool_use' && typeof block.id === 'string') calls.add(block.id);
  }
  for (let i = from; i < records.length; i += 1) {
    const record = records[i]!;
    if (record.type !== 'user' || record.isSidechain === true) continue;
    if (blocksOf(record).some((b) => b.type === 'tool_result' && typeof b.tool_use_id === 'string' && calls.has(b.tool_use_id))) loaded.add(i);
  }
  return [...loaded].sort((a, b) => a - b);
}

function assistantMessageId(record: Json): string | null {
  if (record.type !== 'assistant' || !isObject(record.message)) return null;
  const id = record.message.id;
  return typeof id === 'string' ? id : null;
}

function blocksOf(record: Json): Json[] {
  const content = isObject(record.message) ? record.message.content : undefined;
  return Array.isArray(content) ? content.filter(isObject) : [];
}

export function isCompactBoundary(record: Json): boolean {
  return record.type === 'system' && record.subtype === 'compact_boundary';
}

/** The last user or assistant message of the main conversation; -1 when there is none. */
function newestMessage(records: readonly Json[]): number {
  for (let i = records.length - 1; i >= 0; i -= 1) {
    const record = records[i]!;
    if ((record.type === 'user' || record.type === 'assistant') && record.isSidechain !== true) return i;
  }
  return -1;
}

function afterLastBoundary(records: readonly Json[]): number[] {
  let start = 0;
  records.forEach((record, i) => {
    if (isCompactBoundary(record)) start = i + 1;
  });
  return records.map((_, i) => i).slice(start);
}
