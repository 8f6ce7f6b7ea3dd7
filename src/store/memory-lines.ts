/**
 * The export format: one JSON object per line, one memory per object, every stored field under its
 * snake_case name, plus `vector` when asked for. A hand-written line needs only `content`: every other
 * field takes a default (see LineDefaults). Parsing validates every line before anything is written,
 * and reports each bad line by number. Pure: the clock and the id source are handed in.
 */
import { z } from 'zod';
import { IMPORTANCE_BY_TYPE, MEMORY_TYPES, PROVENANCES } from '../core/memory.js';
import type { MemoryRecord, MemoryType } from '../core/memory.js';
import { normalizeEpoch, normalizeTimestamp } from './lenient-timestamp.js';

export const MAX_LINE_BYTES = 64 * 1024;
export const MAX_CONTENT_CHARS = 8_000;
const MAX_VECTOR_DIM = 8192;

/**
 * An ISO 8601 date and time in any of its usual forms (lenient-timestamp.ts), or a Unix time in seconds or
 * milliseconds, kept as what `Date#toISOString()` writes, so timestamps sort as text; an exported one
 * survives a round trip unchanged. The error names the value it could not read.
 */
const isoTimestamp = z.unknown().transform((value, ctx): string | null => {
  // null is "not given", as an absent field is (exports of other tools write null for an unset date).
  if (value === null || value === undefined) return null;
  const normalized = typeof value === 'number' ? normalizeEpoch(value) : typeof value === 'string' ? normalizeTimestamp(value) : null;
  if (normalized !== null) return normalized;
  const shown = JSON.stringify(typeof value === 'string' && value.length > 40 ? `${value.slice(0, 40)}…` : value) ?? String(value);
  ctx.addIssue({ code: 'custom', message: `${shown} is not an ISO 8601 date and time like 2024-05-01T10:00:00Z or 2024-05-01T12:00+02:00` });
  return z.NEVER;
});

/** The type of a line that names none: a neutral fact about how things are done, which replaces nothing. */
export const DEFAULT_LINE_TYPE: MemoryType = 'pattern';

const lineSchema = z.object({
  id: z.string().regex(/^[0-9A-Za-z_-]{1,64}$/, 'must be 1-64 letters, digits, _ or -').optional(),
  content: z.string().max(MAX_CONTENT_CHARS).refine((value) => value.trim() !== '', 'is empty'),
  type: z.enum(MEMORY_TYPES).optional(),
  importance: z.number().min(0).max(1).optional(),
  namespace: z.string().min(1).max(300).optional(),
  project_root: z.string().max(4096).nullable().optional(),
  session_id: z.string().max(300).nullable().optional(),
  source: z.string().min(1).max(100).optional(),
  embedder: z.string().min(1).max(300).optional(),
  created_at: isoTimestamp.optional(),
  last_seen_at: isoTimestamp.optional(),
  /** Other tools' name for when a memory last changed: read as last_seen_at when that is absent. */
  updated_at: isoTimestamp.optional(),
  seen_count: z.number().int().min(1).optional(),
  /** A replaced memory: the id of the one that replaced it and when. Absent or null: a current memory. */
  superseded_by: z.string().regex(/^[0-9A-Za-z_-]{1,64}$/, 'must be 1-64 letters, digits, _ or -').nullable().optional(),
  superseded_at: isoTimestamp.optional(),
  provenance: z.enum(PROVENANCES).nullable().optional(),
  status: z.enum(['quarantined']).nullable().optional(),
  vector: z.array(z.number().finite()).min(1).max(MAX_VECTOR_DIM).optional(),
});

export type MemoryLine = z.infer<typeof lineSchema>;

/** What a line that leaves a field out gets. */
export interface LineDefaults {
  /** The time (ISO) for `created_at` and `last_seen_at`. */
  now: string;
  /** A fresh id for a line without one. */
  newId: () => string;
  namespace: string;
  /** The project root recorded with the default namespace (null for global). */
  projectRoot: string | null;
}

const NO_EMBEDDER = 'none';

export interface ParsedMemory {
  /** 1-based line number in the file. */
  line: number;
  record: MemoryRecord;
  vector: Float32Array | null;
}

export interface LineError {
  line: number;
  message: string;
}

export function formatMemoryLine(record: MemoryRecord, vector?: Float32Array): string {
  const line: Required<Omit<MemoryLine, 'vector' | 'updated_at'>> & Pick<MemoryLine, 'vector'> = {
    id: record.id,
    content: record.content,
    type: record.type,
    importance: record.importance,
    namespace: record.namespace,
    project_root: record.projectRoot,
    session_id: record.sessionId,
    source: record.source,
    embedder: record.embedder,
    created_at: record.createdAt,
    last_seen_at: record.lastSeenAt,
    seen_count: record.seenCount,
    superseded_by: record.supersededBy ?? null,
    superseded_at: record.supersededAt ?? null,
    provenance: record.provenance ?? null,
    status: record.status ?? null,
    ...(vector ? { vector: Array.from(vector) } : {}),
  };
  return JSON.stringify(line);
}

/** Every line parsed, or every problem found; blank lines are skipped. */
export function parseMemoryLines(text: string, defaults: LineDefaults): { memories: ParsedMemory[]; errors: LineError[] } {
  const memories: ParsedMemory[] = [];
  const errors: LineError[] = [];
  const lines = text.replace(/^\uFEFF/, '').split('\n');
  lines.forEach((raw, index) => {
    const line = index + 1;
    const body = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (body.trim() === '') return;
    const bytes = Buffer.byteLength(body, 'utf8');
    if (bytes > MAX_LINE_BYTES) {
      errors.push({ line, message: `is ${bytes} bytes; the limit is ${MAX_LINE_BYTES}` });
      return;
    }
    let value: unknown;
    try {
      value = JSON.parse(body);
    } catch {
      errors.push({ line, message: 'is not valid JSON' });
      return;
    }
    const parsed = lineSchema.safeParse(value);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      errors.push({ line, message: issue ? `${issue.path.join('.') || 'the line'}: ${issue.message}` : 'is not a memory' });
      return;
    }
    memories.push({ line, record: toRecord(parsed.data, defaults), vector: parsed.data.vector ? Float32Array.from(parsed.data.vector) : null });
  });
  return { memories, errors };
}

function toRecord(line: MemoryLine, defaults: LineDefaults): MemoryRecord {
  const type = line.type ?? DEFAULT_LINE_TYPE;
  const namespace = line.namespace ?? defaults.namespace;
  const createdAt = line.created_at ?? defaults.now;
  const lastSeenAt = line.last_seen_at ?? line.updated_at ?? createdAt;
  return {
    id: line.id ?? defaults.newId(),
    content: line.content,
    type,
    importance: line.importance ?? IMPORTANCE_BY_TYPE[type],
    namespace,
    // A line in another namespace than the default one does not borrow the default's project root.
    projectRoot: line.project_root !== undefined ? line.project_root : namespace === defaults.namespace ? defaults.projectRoot : null,
    sessionId: line.session_id ?? null,
    source: line.source ?? 'import',
    // A vector without the embedder that made it is recomputed (see parseMemoryLines).
    embedder: line.embedder ?? NO_EMBEDDER,
    createdAt,
    lastSeenAt,
    seenCount: line.seen_count ?? 1,
    supersededBy: line.superseded_by ?? null,
    // A replaced memory without a time keeps the time it was last seen.
    supersededAt: line.superseded_by == null ? null : (line.superseded_at ?? lastSeenAt),
    provenance: line.provenance ?? null,
    status: line.status ?? null,
  };
}
