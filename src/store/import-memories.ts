/**
 * Imports an export file: all lines validated first (nothing is written if any line is bad), then,
 * block by block (IMPORT_BLOCK lines), duplicates dropped (same id as a stored memory or an earlier
 * line, or a dedupe match by text or meaning), vectors reused when they come from the configured
 * embedder and recomputed otherwise, and what is left written in one commit per block with its ids,
 * timestamps and seen counts unchanged. A block's vectors, lookups and rows are let go before the next
 * block, so an import's memory does not grow with the file beyond its parsed lines; a later block is
 * checked against the store that holds the earlier ones.
 */
import { monotonicFactory } from 'ulid';
import { RecallError } from '../core/errors.js';
import type { Embedder, MemoryStore, StoredMemory } from '../core/ports.js';
import { contentKey } from '../core/memory.js';
import { redactSecrets } from '../redact/redact-secrets.js';
import { decideMemories, lookupMemories, withDecisionDefaults } from './decide-memories.js';
import type { DecisionSettings } from './decide-memories.js';
import { GLOBAL_NAMESPACE } from '../project/resolve-project.js';
import { parseMemoryLines } from './memory-lines.js';
import { QUARANTINED, screenMemory } from './screen-memory.js';
import { mayReplace, recordOf } from './authority.js';
import type { LineDefaults, LineError, ParsedMemory } from './memory-lines.js';

/** The decision settings (threshold; band, model and log optional, see DecideOptions) and the parts to import with. */
export interface ImportDeps extends DecisionSettings {
  store: MemoryStore;
  embedder: Embedder;
  withStoreLock: <T>(fn: () => Promise<T>) => Promise<T>;
  /** What a line without a namespace (and the rest) gets; default: global, now, fresh ULIDs. */
  lineDefaults?: Partial<LineDefaults>;
  /** Import the good lines and count the bad ones, instead of refusing the whole file. */
  skipBadLines?: boolean;
  /** Called as work advances, for a progress bar: lines of the file done of `total`, and the step they are in. */
  onProgress?: (step: ImportStep, done: number, total: number) => void;
  /**
   * Called after each block is written, outside the store lock: the caller starts the store's upkeep
   * when it is due, so a store that crosses the vector index's row count during a big import gets its
   * index and the later blocks' lookups use it.
   */
  afterBlock?: () => Promise<void>;
}

export type ImportStep = 'embedding' | 'deciding' | 'writing';

export interface ImportResult {
  imported: number;
  /** Same id as a stored memory or an earlier line of the file. */
  duplicateIds: number;
  /** Same text or meaning as a stored memory or an earlier line, in the same namespace. */
  duplicateContent: number;
  /** Lines whose vector was computed here (absent, from another embedder, or text changed by redaction). */
  reembedded: number;
  /** Memories marked as replaced: stored ones a newer line changed, or lines a newer stored memory had changed. */
  superseded: number;
  /** Stored memories held for review (quarantined): lines that read like instructions to an agent. */
  heldForReview: number;
  /** Lines that were not a memory (skipped with `skipBadLines`, else nothing is imported), and the first few of them. */
  badLines: number;
  badLineErrors: string[];
  /** Lines held for review as proposed changes: they would replace stored memories (an import has the least authority). */
  proposed: number;
  namespaces: string[];
}

const EMBED_BATCH = 64;
/** What an imported line counts as when it would replace a stored memory, whatever its file says. */
const IMPORTED = { provenance: 'import', source: 'import' } as const;
const ERRORS_SHOWN = 10;
const DEDUPE_CHUNK = 256;
/**
 * Lines embedded, looked up, decided and written together. One pass over a table without a vector
 * index serves a block's lookups (lookupMemories), so a big file costs a pass per block, not one per
 * line; a block's rows are one commit, and the store lock is taken per block, so captures go on
 * between blocks. Nothing of a block is stored before the block is decided, so looking it up at once
 * changes no decision.
 */
export const IMPORT_BLOCK = 1024;

export async function importMemories(text: string, deps: ImportDeps): Promise<ImportResult> {
  const { memories, errors } = parseMemoryLines(text, {
    now: new Date().toISOString(),
    newId: monotonicFactory(),
    namespace: GLOBAL_NAMESPACE,
    projectRoot: null,
    ...deps.lineDefaults,
  });
  if (errors.length > 0 && deps.skipBadLines !== true) throw invalidLines(errors, memories.length);
  const result: ImportResult = {
    imported: 0, duplicateIds: 0, duplicateContent: 0, reembedded: 0, superseded: 0, heldForReview: 0, proposed: 0,
    badLines: errors.length, badLineErrors: errors.slice(0, ERRORS_SHOWN).map(describeLine), namespaces: [],
  };
  if (memories.length === 0) return result;

  const seenIds = new Set<string>();
  const namespaces = new Set<string>();
  for (let from = 0; from < memories.length; from += IMPORT_BLOCK) {
    const block = memories.slice(from, from + IMPORT_BLOCK);
    const progress = deps.onProgress === undefined ? undefined : (step: ImportStep, done: number) => deps.onProgress?.(step, from + done, memories.length);
    await importBlock(block, deps, seenIds, result, namespaces, progress);
    await deps.afterBlock?.();
  }
  result.namespaces = [...namespaces].sort();
  return result;
}

type BlockProgress = ((step: ImportStep, done: number) => void) | undefined;

/** One block of lines, from ids to rows written; its counts are added to `result`. */
async function importBlock(
  lines: readonly ParsedMemory[],
  deps: ImportDeps,
  seenIds: Set<string>,
  result: ImportResult,
  namespaces: Set<string>,
  progress: BlockProgress,
): Promise<void> {
  const { store, embedder } = deps;
  const info = await checkedEmbedder(store, embedder);
  // Embedding can take minutes for a big file: do it before taking the lock, so captures keep flowing.
  const known = new Set((await store.getMany(lines.map((m) => m.record.id))).map((r) => r.id));
  const unique = dropRepeatedIds(lines, known, seenIds, result);
  const withVectors = await vectorsFor(unique.map(redactLine), embedder, info?.dimension ?? null, result, progress);
  if (withVectors.length === 0) return;

  await deps.withStoreLock(async () => {
    // Everything the decision rests on is read again under the lock.
    const infoNow = await checkedEmbedder(store, embedder);
    if (infoNow !== null && withVectors[0] !== undefined && infoNow.dimension !== withVectors[0].vector.length) {
      throw new RecallError('EMBEDDER_MISMATCH', `the store now holds ${infoNow.dimension}-dim vectors; run the import again`);
    }
    const stored = new Set((await store.getMany(withVectors.map((m) => m.id))).map((r) => r.id));
    const fresh = withVectors.filter((m) => !stored.has(m.id));
    const historyIds = new Set(fresh.filter((m) => m.supersededBy != null).map((m) => m.id));
    result.duplicateIds += withVectors.length - fresh.length;
    const { keep, replaced } = await decideLines(fresh, deps, progress);
    result.duplicateContent += fresh.length - keep.length;

    progress?.('writing', 0);
    await store.restore(keep, embedder.id);
    progress?.('writing', lines.length);
    // Marked after the lines are stored: a crash in between leaves both current, never neither.
    const at = new Date();
    for (const { id, by } of replaced) await store.supersede(id, by, at);
    result.superseded += replaced.length + keep.filter((m) => m.supersededBy != null && !historyIds.has(m.id)).length;
    result.imported += keep.length;
    result.heldForReview += keep.filter((m) => m.status === 'quarantined').length;
    result.proposed += keep.filter((m) => m.wantsToReplace != null).length;
    for (const m of keep) namespaces.add(m.namespace);
  });
}

async function checkedEmbedder(store: MemoryStore, embedder: Embedder) {
  const info = await store.embedderInfo();
  if (info !== null && info.embedder !== embedder.id) {
    throw new RecallError('EMBEDDER_MISMATCH', `the store holds vectors from ${info.embedder} but the configured embedder is ${embedder.id}; run \`recall reindex\` first`);
  }
  return info;
}

/** Lines whose id is stored, or taken by an earlier line, are counted as duplicates and dropped. */
function dropRepeatedIds(memories: readonly ParsedMemory[], stored: Set<string>, seen: Set<string>, result: ImportResult): ParsedMemory[] {
  return memories.filter((m) => {
    const repeated = stored.has(m.record.id) || seen.has(m.record.id);
    seen.add(m.record.id);
    if (repeated) result.duplicateIds += 1;
    return !repeated;
  });
}

/**
 * The capture decision for a block, per chunk of lines (so the in-file cosine check stays linear in
 * the block's size). A line that is history in the file (it has `superseded_by`) is kept as it is. A
 * current line goes when a stored memory has its text or meaning (earlier blocks are stored by now),
 * or an earlier line of its chunk does, or any earlier line of the block has the same text in the same
 * namespace; when it changes a stored memory, the older of the two is marked as replaced by the newer.
 */
async function decideLines(memories: readonly StoredMemory[], deps: ImportDeps, progress: BlockProgress): Promise<{ keep: StoredMemory[]; replaced: Array<{ id: string; by: string }> }> {
  const keep: StoredMemory[] = [];
  const replaced: Array<{ id: string; by: string }> = [];
  const keys = new Set<string>();
  const options = withDecisionDefaults(deps);
  const blockLookups = await lookupMemories(deps.store, currentCandidates(memories));
  for (let i = 0; i < memories.length; i += DEDUPE_CHUNK) {
    const chunk = memories.slice(i, i + DEDUPE_CHUNK);
    const current = chunk.filter((m) => m.supersededBy == null);
    keep.push(...chunk.filter((m) => m.supersededBy != null));
    const candidates = currentCandidates(chunk);
    const before = currentCandidates(memories.slice(0, i)).length;
    const lookups = blockLookups.slice(before, before + candidates.length);
    const decisions = await decideMemories(candidates, lookups, options);
    progress?.('deciding', Math.min(i + DEDUPE_CHUNK, memories.length));
    for (const [j, line] of current.entries()) {
      const decision = decisions[j];
      const key = `${line.namespace}\u0000${contentKey(line.content)}`;
      if (decision?.action === 'insert' && !keys.has(key)) {
        const olderStored = (lookups[j]?.nearest ?? []).filter((n) => decision.supersedes.includes(n.record.id));
        // An old export can hold the earlier version of a decision the store has since changed.
        const newer = olderStored.find((n) => n.record.createdAt > line.createdAt);
        if (newer !== undefined) {
          keep.push({ ...line, supersededBy: newer.record.id, supersededAt: newer.record.createdAt });
        } else if (decision.supersedes.length > 0 && (line.status === QUARANTINED || decision.supersedes.some((id) => !mayReplace(IMPORTED, recordOf(lookups[j]?.nearest ?? [], id))))) {
          // An import has the least authority: a change to anything else is a proposal, held for review.
          keep.push({ ...line, status: QUARANTINED, wantsToReplace: decision.supersedes });
        } else {
          keep.push(line);
          replaced.push(...decision.supersedes.map((id) => ({ id, by: line.id })));
        }
      }
      keys.add(key);
    }
  }
  return { keep, replaced };
}

/** A file line has no live session: only text and meaning decide, never "same session". */
function currentCandidates(lines: readonly StoredMemory[]): StoredMemory[] {
  return lines.filter((m) => m.supersededBy == null).map((m) => ({ ...m, sessionId: null }));
}

function describeLine(e: LineError): string {
  return `line ${e.line} ${e.message}`;
}

function invalidLines(errors: readonly LineError[], good: number): RecallError {
  const shown = errors.slice(0, ERRORS_SHOWN).map(describeLine);
  const more = errors.length > ERRORS_SHOWN ? `; and ${errors.length - ERRORS_SHOWN} more` : '';
  const skip = good > 0 ? ` (--skip-bad imports the ${good} good line${good === 1 ? '' : 's'})` : '';
  return new RecallError('INPUT_INVALID', `nothing imported: ${errors.length} bad line${errors.length === 1 ? '' : 's'}${skip}: ${shown.join('; ')}${more}`);
}

/** Text that still holds a secret is redacted, and then its old vector no longer fits it. */
/**
 * Redacted, and screened again whatever the file says: an export can come from anywhere, so a line that
 * reads like an instruction is quarantined even when the file calls it approved.
 */
function redactLine(m: ParsedMemory): ParsedMemory {
  const redacted = redactSecrets(m.record.content);
  const content = redacted.text;
  const screened = screenMemory(content, { namespace: m.record.namespace, source: 'import' });
  const record = { ...m.record, content, provenance: m.record.provenance ?? 'import', status: m.record.status ?? screened.status };
  return redacted.count === 0 ? { ...m, record } : { ...m, record, vector: null };
}

/** A line keeps its vector when it comes from the configured embedder with the right dimension. */
async function vectorsFor(
  lines: readonly ParsedMemory[],
  embedder: Embedder,
  dimension: number | null,
  result: ImportResult,
  progress: BlockProgress,
): Promise<StoredMemory[]> {
  const usable = (m: ParsedMemory) =>
    m.vector !== null && m.record.embedder === embedder.id && (dimension === null || m.vector.length === dimension);
  const todo = lines.filter((m) => !usable(m));
  const computed = new Map<ParsedMemory, Float32Array>();
  for (let i = 0; i < todo.length; i += EMBED_BATCH) {
    const batch = todo.slice(i, i + EMBED_BATCH);
    const vectors = await embedder.embed(batch.map((m) => m.record.content));
    if (vectors.length !== batch.length) {
      throw new RecallError('EMBEDDER_UNAVAILABLE', `embedder ${embedder.id} returned ${vectors.length} vectors for ${batch.length} texts`);
    }
    batch.forEach((m, j) => computed.set(m, vectors[j] as Float32Array));
    progress?.('embedding', Math.min(i + EMBED_BATCH, todo.length));
  }
  result.reembedded += todo.length;
  const out = lines.map((m) => ({ ...m.record, embedder: embedder.id, vector: computed.get(m) ?? (m.vector as Float32Array) }));
  const dim = dimension ?? out[0]?.vector.length;
  const odd = out.find((m) => m.vector.length !== dim);
  if (odd) throw new RecallError('INPUT_INVALID', `nothing imported: memory ${odd.id} has a ${odd.vector.length}-dim vector, the others ${dim}`);
  return out;
}
