/**
 * The lines `claude --resume` loads from a Claude Code transcript: the chain of the newest message,
 * followed back by `parentUuid`, up to the last compaction (a `compact_boundary` system entry; the
 * compaction summary after it is part of the chain). Side chains (subagents) and branches left by a
 * rewind are not on it. A transcript without uuids (other agents, simplified files) loads every
 * line after its last compaction boundary. Pure.
 */
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
  return chain.reverse();
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
