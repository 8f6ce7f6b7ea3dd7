/**
 * What `recall search --json` prints for each hit: by default the fields an agent acts on (id, score,
 * type, namespace, created_at, content; status, held, wants_to_replace and superseded_by only when set), scores rounded to
 * three places; `--fields a,b` picks fields, `--full` prints every one.
 */
import { RecallError } from '../core/errors.js';
import type { SearchHit } from '../search/search-memories.js';
import { memoryJson } from './commands/list.js';

export const SEARCH_FIELDS = [
  'id', 'score', 'type', 'namespace', 'created_at', 'content', 'vector_score', 'text_score', 'importance', 'embedder',
  'project_root', 'session_id', 'source', 'last_seen_at', 'seen_count', 'superseded_by', 'superseded_at', 'provenance', 'status',
  'held', 'wants_to_replace',
] as const;
type SearchField = (typeof SEARCH_FIELDS)[number];

const COMPACT_FIELDS: readonly SearchField[] = ['id', 'score', 'type', 'namespace', 'created_at', 'content'];
/** Shown by default only when set: a hit held for review (with --include-held), a proposed change, or replaced (with --all-versions). */
const COMPACT_WHEN_SET: readonly SearchField[] = ['status', 'held', 'wants_to_replace', 'superseded_by'];

/** The fields `--fields` names, checked; null for the default. */
export function parseSearchFields(value: string | undefined, full: boolean): readonly SearchField[] | null {
  if (full) return SEARCH_FIELDS;
  if (value === undefined) return null;
  const names = value.split(',').map((name) => name.trim()).filter((name) => name !== '');
  const unknown = names.filter((name) => !(SEARCH_FIELDS as readonly string[]).includes(name));
  if (names.length === 0 || unknown.length > 0) {
    throw new RecallError('INPUT_INVALID', `--fields: ${names.length === 0 ? 'no field named' : `unknown field ${unknown.join(', ')}`}; use some of ${SEARCH_FIELDS.join(', ')}`);
  }
  return [...new Set(names)] as SearchField[];
}

/** One hit as JSON, with the chosen fields (null: the default ones) in the order asked. */
export function searchHitJson(hit: SearchHit, fields: readonly SearchField[] | null): Record<string, unknown> {
  const all: Record<string, unknown> = memoryJson(hit.record, {
    score: roundScore(hit.score),
    vector_score: hit.vectorScore === null ? null : roundScore(hit.vectorScore),
    text_score: hit.textScore === null ? null : roundScore(hit.textScore),
  });
  const chosen = fields ?? [...COMPACT_FIELDS, ...COMPACT_WHEN_SET.filter((name) => all[name] !== null && all[name] !== undefined && all[name] !== false)];
  return Object.fromEntries(chosen.map((name) => [name, all[name] ?? null]));
}

function roundScore(score: number): number {
  return Math.round(score * 1000) / 1000;
}
