/** The small interfaces pipeline stages depend on; adapters implement them, tests hand in doubles. */
import type { CandidateMemory, MemoryOrigin, MemoryRecord, MemoryStatus, MemoryType, Provenance } from './memory.js';

export interface ChatRequest {
  system: string;
  prompt: string;
  /** JSON schema for structured output; omitted means free text. */
  schema?: Record<string, unknown>;
  numCtx: number;
}

/** What the server said about one answer: tokens and seconds of the prompt and of the reply (Ollama's eval_count, eval_duration, ...). */
export interface LlmUsage {
  promptTokens: number;
  promptSeconds: number;
  outputTokens: number;
  outputSeconds: number;
}

export interface Llm {
  readonly model: string;
  /** Returns the assistant's text. Throws RecallError (LLM_*) on failure. */
  chat(request: ChatRequest): Promise<string>;
}

export interface Embedder {
  /** Stable identity recorded with the vectors, e.g. `transformers:Xenova/all-MiniLM-L6-v2`. */
  readonly id: string;
  /** Unit-length vectors, one per text, all of the same dimension. */
  embed(texts: readonly string[]): Promise<Float32Array[]>;
}

export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A stored memory plus its similarity to a query vector. */
export interface Neighbor {
  record: MemoryRecord;
  /** Cosine similarity in [-1, 1]. */
  similarity: number;
}

export interface NewMemory extends CandidateMemory, MemoryOrigin {
  vector: Float32Array;
  status?: MemoryStatus | null;
  /** A proposed change: the ids it would replace once approved. */
  wantsToReplace?: readonly string[] | null;
}

/** A memory's new text and type, with the vector of the new text. */
export interface MemoryEdit {
  content: string;
  type: MemoryType;
  importance: number;
  vector: Float32Array;
  /** The words are now the user's: the edit records this provenance. */
  provenance?: Provenance;
}

/** Which memories a read looks at; every given filter must hold. */
export interface MemoryFilters {
  namespace?: string;
  /** Any of these namespaces; an empty list matches nothing. */
  namespaces?: readonly string[];
  /** Any project of this folder name (`project:<name>-<8 hex>`): same-named projects in different places. */
  projectName?: string;
  type?: string;
  /** Only memories created at or after this instant. */
  since?: Date;
  /** Only memories replaced at or after this instant (implies allVersions): the recent changes. */
  supersededSince?: Date;
  /** Replaced (superseded) memories too; by default only current ones are read. */
  allVersions?: boolean;
  /** Only the memories this one replaced (its older versions); implies allVersions. */
  supersededBy?: string;
  /**
   * Quarantined memories (`recall review`): `exclude` for everything that reaches a session or an agent
   * (SessionStart context, the MCP server), `only` for the review; by default they are read like the rest.
   */
  quarantine?: 'exclude' | 'only';
}

export interface ListOptions extends MemoryFilters {
  limit?: number;
}

/** A place in the newest-first order of `list`: a memory's creation time, then its id. */
export interface ListCursor {
  createdAt: string;
  id: string;
}

/**
 * A page of `list` by its place in the order rather than by a count of rows before it, so a deep page
 * reads no more than the first and memories added meanwhile neither repeat nor skip a row.
 */
export interface ListPageOptions extends ListOptions {
  /** Only memories after this place (older ones): the next page. */
  olderThan?: ListCursor;
  /** Only memories before this place (newer ones), the `limit` nearest to it, still newest first: the previous page. */
  newerThan?: ListCursor;
}

/** A memory's id plus its cosine similarity to a query vector, in [-1, 1]. */
export interface VectorMatch {
  id: string;
  similarity: number;
}

/** A stored memory plus its BM25 full-text score for a query (> 0, unbounded, larger is better). */
export interface TextHit {
  record: MemoryRecord;
  score: number;
}

/** A memory's id plus its BM25 score for a query (> 0). */
export interface TextScore {
  id: string;
  score: number;
}

/** A stored memory with its vector: what export, import and re-embedding move around. */
export interface StoredMemory extends MemoryRecord {
  vector: Float32Array;
}

export interface ScanOptions extends MemoryFilters {
  /** Rows per yielded batch. */
  batchSize: number;
}

/** How many memories one namespace holds of one type. */
export interface GroupCount {
  namespace: string;
  type: string;
  count: number;
}

/** A vector made by the embedder a re-embed moves to, waiting to be swapped in. */
export interface StagedVector {
  id: string;
  /** The content key of the text the vector was made from; a changed text needs a new vector. */
  contentKey: string;
  vector: Float32Array;
}

/** What the store holds near one new memory: its exact-text match and its nearest current memories. */
export interface ContentLookup {
  exact: MemoryRecord | null;
  nearest: Neighbor[];
}

export interface MemoryStore {
  /** The embedder id and dimension the table's vectors were made with, or null for an empty store. */
  embedderInfo(): Promise<{ embedder: string; dimension: number } | null>;
  /** Exact-text (folded) matches among the current memories of a namespace. */
  findByContentKey(namespace: string, contentKey: string): Promise<MemoryRecord | null>;
  /** Nearest current memories inside a namespace, most similar first (the dedupe lookup: the deeper re-rank past an index). */
  nearest(namespace: string, vector: Float32Array, limit: number): Promise<Neighbor[]>;
  /**
   * findByContentKey and nearest for many memories at once, in bounded memory whatever the store's
   * state (one pass over a table without a vector index, instead of one full read per memory).
   * Optional: without it, callers ask findByContentKey and nearest for each memory in turn.
   */
  lookupMany?(queries: ReadonlyArray<{ namespace: string; contentKey: string; vector: Float32Array }>, limit: number): Promise<ContentLookup[]>;
  insert(memories: readonly NewMemory[], embedder: string): Promise<MemoryRecord[]>;
  /** A duplicate seen again: bump seen count and last-seen time. */
  reinforce(id: string, seenAt: Date): Promise<void>;
  /** A changed decision: `oldId` stays as history, marked as replaced by `newId` at `at`. Never deletes. */
  supersede(oldId: string, newId: string, at: Date): Promise<void>;
  /**
   * Points these memories at another newer version, or (null) makes them current again, whatever they
   * were replaced by before (forgetting or restoring a version of a chain). Returns how many changed.
   */
  relink(ids: readonly string[], supersededBy: string | null, at: Date): Promise<number>;
  /** Sets or clears (null) the ids a held memory would replace once approved. */
  setWantsToReplace(id: string, ids: readonly string[] | null): Promise<void>;
  /**
   * Rewrites a memory's text and type in place (the user's own edit): the new vector must come from the
   * store's embedder; id, namespace, timestamps and seen count stay. NOT_FOUND when there is no such memory.
   */
  edit(id: string, change: MemoryEdit): Promise<MemoryRecord>;
  /** Sets the review status of these memories (null releases them from quarantine); returns how many changed. */
  setStatus(ids: readonly string[], status: MemoryStatus | null): Promise<number>;
  /** Newest first (created_at, then id). */
  list(options: ListPageOptions): Promise<MemoryRecord[]>;
  /**
   * How many memories match, replaced ones (history) included; every memory without filters. Callers
   * ask whether a store or a namespace holds anything, which history answers as well, and a count
   * without filters reads no rows.
   */
  count(filters?: MemoryFilters): Promise<number>;
  /**
   * Vector search across one namespace or all, most similar first (for a reader: a shallower re-rank
   * past an index). Ids only: the caller reads the rows it shows with getMany.
   */
  search(vector: Float32Array, options: ListOptions): Promise<VectorMatch[]>;
  /** BM25 full-text search over the content, best first; an empty store or a query without words finds nothing. */
  textSearch(query: string, options: ListOptions): Promise<TextHit[]>;
  /**
   * The cosine similarity of `vector` to each of these memories (those that exist), in no particular
   * order: a hybrid search asks it for the memories only its text side found.
   */
  vectorScores(vector: Float32Array, ids: readonly string[]): Promise<VectorMatch[]>;
  /**
   * The BM25 score of `query` for each of these memories that matches it (the others score 0 and are
   * left out), in no particular order: a hybrid search asks it for the memories only its vector side found.
   */
  textScores(query: string, ids: readonly string[]): Promise<TextScore[]>;
  /**
   * For a long-lived process (`recall serve`): loads the full-text index whole into memory, so text
   * searches that follow run faster. Does nothing when the index is the one it last loaded, or when
   * the table has no index yet; true when it loaded one.
   */
  warmTextIndex(): Promise<boolean>;
  /**
   * For a long-lived process (`recall serve`): while the table has no vector index, keeps a copy of its
   * rows and vectors in memory, so vector searches (exact, as without an index) and reads by id are
   * answered from it as long as the table stays at the version copied. Does nothing when the copy is
   * current; true when it made one.
   */
  warmVectors(): Promise<boolean>;
  get(id: string): Promise<MemoryRecord | null>;
  /** The memories with these ids that exist, in no particular order. */
  getMany(ids: readonly string[]): Promise<MemoryRecord[]>;
  /** Deletes in one commit; returns how many rows went. */
  delete(ids: readonly string[]): Promise<number>;
  deleteNamespace(namespace: string): Promise<number>;
  /** Every matching memory (with its vector), in batches, from one consistent snapshot, oldest id first. */
  scan(options: ScanOptions): AsyncIterable<StoredMemory[]>;
  /** Writes memories as they are (ids, timestamps, seen counts kept) in one commit; import uses it. */
  restore(memories: readonly StoredMemory[], embedder: string): Promise<void>;
  countByNamespaceAndType(): Promise<GroupCount[]>;
  /**
   * A number that changes with every commit to the table, by any process (null without a table): a
   * long-lived reader (`recall ui`) keeps what it computed from the rows until it changes.
   */
  dataVersion?(): Promise<number | null>;
  /**
   * Re-embedding, resumable: vectors for `embedder` are staged apart from the live rows and swapped
   * in at once. Returns id -> content key of what is staged for `embedder`; staging left by another
   * embedder is discarded.
   */
  stagedVectors(embedder: string): Promise<Map<string, string>>;
  stageVectors(embedder: string, vectors: readonly StagedVector[]): Promise<void>;
  /**
   * Replaces every row's vector with its staged one and records `embedder`, in one commit, then drops
   * the staging. Throws (nothing changed) unless every live row has a staged vector for its current text.
   * A store whose rows were all deleted is reset instead, so its next write records the new embedder.
   */
  swapInStagedVectors(embedder: string): Promise<number>;
  /**
   * Problems that came after writes were stored (a text index that could not be brought up to date),
   * each returned once; the writes themselves succeeded. Optional: a store without such upkeep has none.
   */
  takeWriteWarnings?(): string[];
  close(): Promise<void>;
}
