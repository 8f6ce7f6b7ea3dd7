/**
 * The text MCP tools answer with: one line per memory, short enough to spend few tokens, with the id
 * a later `memory_forget` needs. Pure.
 *
 *   1. [decision] Use PostgreSQL 16 for the orders service (id 01J9..., score 0.82)
 *   2. [golden_rule] You MUST use pnpm, never npm. (id 01J8..., score 0.64, global)
 */
import type { ManualMemoryOutcome } from '../store/store-manual-memory.js';
import type { MemoryRecord } from '../core/memory.js';
import { formatAge } from '../core/format.js';
import type { SearchHit } from '../search/search-memories.js';
import { labelOf } from './tool-scope.js';

export interface FormatOptions {
  /** The namespace results are expected in; others are named after the id. */
  home: string;
  now: Date;
}

export function formatHits(hits: readonly SearchHit[], query: string, scopeLabel: string, opts: FormatOptions): string {
  if (hits.length === 0) return `No memories match "${oneLine(query)}" in ${scopeLabel}.`;
  return hits
    .map((hit, i) => `${i + 1}. [${hit.record.type}] ${oneLine(hit.record.content)} (${details(hit.record, opts, `score ${hit.score.toFixed(2)}`)})`)
    .join('\n');
}

export function formatRecent(records: readonly MemoryRecord[], scopeLabel: string, opts: FormatOptions): string {
  if (records.length === 0) return `No memories yet in ${scopeLabel}.`;
  return records
    .map((r, i) => `${i + 1}. [${r.type}] ${formatAge(r.createdAt, opts.now)} ago: ${oneLine(r.content)} (${details(r, opts)})`)
    .join('\n');
}

export function formatStored(outcome: ManualMemoryOutcome): string {
  const where = labelOf(outcome.namespace);
  const redacted = outcome.redactions > 0 ? ` ${outcome.redactions} secret${outcome.redactions === 1 ? ' was' : 's were'} redacted.` : '';
  if (outcome.status === 'stored') {
    const replaced = outcome.supersedes ?? [];
    const history = replaced.length === 0 ? '' : ` It replaces ${replaced.join(', ')} (a changed decision; the older version is kept as history and no longer returned).`;
    if (outcome.wantsToReplace !== undefined) {
      return `Stored as ${outcome.id} in ${where} as a proposed change: it wants to replace ${outcome.wantsToReplace.join(', ')}, which stays current until the user approves the change with \`recall review\`.${redacted}`;
    }
    if (outcome.quarantined === true) {
      return `Stored as ${outcome.id} in ${where}, held for the user's review: no session sees it until they approve it with \`recall review\`.${redacted}`;
    }
    return `Stored as ${outcome.id} in ${where}.${history}${redacted}`;
  }
  const similarity = (outcome.similarity ?? 1).toFixed(2);
  return `Already known: matches ${outcome.id} in ${where} (similarity ${similarity}); nothing new was stored, its seen count went up.${redacted}`;
}

export function formatForgotten(record: MemoryRecord): string {
  return `Forgot ${record.id} from ${labelOf(record.namespace)}: [${record.type}] ${oneLine(record.content)}`;
}

function details(record: MemoryRecord, opts: FormatOptions, extra?: string): string {
  const parts = [`id ${record.id}`];
  if (extra !== undefined) parts.push(extra);
  if (record.namespace !== opts.home) parts.push(labelOf(record.namespace));
  return parts.join(', ');
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
