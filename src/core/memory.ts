/** The vocabulary shared by every stage: memory types, candidates and stored records. */

export const MEMORY_TYPES = ['golden_rule', 'preference', 'decision', 'pattern', 'session'] as const;
export type MemoryType = (typeof MEMORY_TYPES)[number];

/** Importance follows the type; one table so every stage agrees. */
export const IMPORTANCE_BY_TYPE: Readonly<Record<MemoryType, number>> = {
  golden_rule: 1.0,
  decision: 0.8,
  preference: 0.7,
  pattern: 0.6,
  session: 0.3,
};

export function isMemoryType(value: string): value is MemoryType {
  return (MEMORY_TYPES as readonly string[]).includes(value);
}

/**
 * Where a memory's words came from. From a session: what the user typed, what the assistant said, tool
 * output, text the user pasted, the agent's compaction summary, or `model` (the extraction model's own
 * wording, matching no part of the session). Otherwise how it was written: `recall add`, the MCP server,
 * `recall import`.
 */
export const PROVENANCES = ['user', 'assistant', 'tool-output', 'pasted', 'summary', 'model', 'manual', 'mcp', 'import'] as const;
export type Provenance = (typeof PROVENANCES)[number];

export function isProvenance(value: unknown): value is Provenance {
  return typeof value === 'string' && (PROVENANCES as readonly string[]).includes(value);
}

/**
 * How much a memory's words are trusted to change others: the user's own words (typed in a session,
 * `recall add`, the page's edit) 3; the assistant's and the model's own wording 2; tool output, pasted
 * text, MCP stores and imports 1. A memory from before provenance was kept counts by how it was written.
 */
export function authorityOf(memory: { provenance?: Provenance | null; source?: string }): 1 | 2 | 3 {
  switch (memory.provenance) {
    case 'user':
    case 'manual':
      return 3;
    case 'assistant':
    case 'summary':
    case 'model':
      return 2;
    case 'tool-output':
    case 'pasted':
    case 'mcp':
    case 'import':
      return 1;
    default:
      return memory.source === 'manual' ? 3 : memory.source === 'mcp' || memory.source === 'import' ? 1 : 2;
  }
}

/** The user's own words: what "Rules the user set" may list. */
export function isUserAuthority(memory: { provenance?: Provenance | null; source?: string }): boolean {
  return authorityOf(memory) === 3;
}

/** What extraction hands to the store: text and a type, nothing persisted yet. */
export interface CandidateMemory {
  content: string;
  type: MemoryType;
  importance: number;
  /** Where its words came from, when known. */
  provenance?: Provenance | null;
}

/** `quarantined`: held back from every session and from the MCP server until the user approves it (`recall review`). */
export type MemoryStatus = 'quarantined';

/** Where a memory came from. */
export interface MemoryOrigin {
  namespace: string;
  projectRoot: string | null;
  sessionId: string | null;
  /** `claude`, `factory`, `manual`, `import`, ... */
  source: string;
}

/** One stored memory, as the store returns it (vector left out). */
export interface MemoryRecord extends CandidateMemory, MemoryOrigin {
  id: string;
  embedder: string;
  createdAt: string;
  lastSeenAt: string;
  seenCount: number;
  /** The memory that replaced this one (a changed decision); null or absent while it is current. */
  supersededBy?: string | null;
  /** When it was replaced (ISO time); null or absent while it is current. */
  supersededAt?: string | null;
  /** Where the memory's words came from; null for memories stored before recall kept it. */
  provenance?: Provenance | null;
  /** Null for a memory sessions see. */
  status?: MemoryStatus | null;
  /**
   * A proposed change, held for review: the memories this one would replace once approved (it came from
   * a lower authority than they did, or the screen held it). Null or absent otherwise.
   */
  wantsToReplace?: readonly string[] | null;
}

/** The exact-duplicate key: case folded, whitespace collapsed, trailing punctuation ignored. */
export function contentKey(content: string): string {
  return content.toLowerCase().replace(/\s+/g, ' ').trim().replace(/[.!;\s]+$/, '');
}
