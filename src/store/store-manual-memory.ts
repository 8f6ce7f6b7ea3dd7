/** A memory written by hand (`recall add`, the MCP `memory_store` tool), stored like captured ones. */
import { RecallError } from '../core/errors.js';
import { IMPORTANCE_BY_TYPE } from '../core/memory.js';
import type { MemoryOrigin, MemoryType } from '../core/memory.js';
import { redactSecrets } from '../redact/redact-secrets.js';
import type { StoreParts } from './store-parts.js';
import { decisionOptions } from './decision-options.js';
import { QUARANTINED } from './screen-memory.js';
import { storeMemories } from './store-memories.js';

/** A memory is a sentence or two; this leaves room for a long rule without letting a file in. */
export const MAX_MEMORY_CHARS = 2_000;

export type ManualMemoryOutcome =
  /** `supersedes`: the stored memories this one replaced (kept as history). */
  /** `wantsToReplace`: held as a proposed change to these memories (of higher authority) until the user approves it. */
  | { status: 'stored'; id: string; namespace: string; redactions: number; supersedes?: string[]; quarantined?: boolean; wantsToReplace?: string[] }
  | { status: 'matched'; id: string | null; similarity: number | null; namespace: string; redactions: number };

/** The trimmed text of a memory written by hand; INPUT_INVALID when it is empty or longer than MAX_MEMORY_CHARS. */
export function checkMemoryText(raw: string): string {
  const text = raw.trim();
  if (text === '') throw new RecallError('INPUT_INVALID', 'the memory text is empty');
  if (text.length > MAX_MEMORY_CHARS) throw new RecallError('INPUT_INVALID', `the memory is ${text.length} characters; the limit is ${MAX_MEMORY_CHARS}`);
  return text;
}

/**
 * Stores one memory written by hand (`recall add`, the MCP `memory_store` tool) the way captured ones
 * are stored: redacted, embedded, deduplicated, written under the store lock in one insert. A text that
 * is nothing but a secret (only `[REDACTED:…]` left once redacted) is refused: it would store no rule.
 */
export async function storeManualMemory(
  memory: { text: string; type: MemoryType; importance?: number },
  origin: MemoryOrigin,
  runtime: StoreParts,
): Promise<ManualMemoryOutcome> {
  const redacted = redactSecrets(checkMemoryText(memory.text));
  if (redacted.count > 0 && !/[\p{L}\p{N}]/u.test(redacted.text.replace(/\[REDACTED:[^\]]*\]/g, ''))) {
    throw new RecallError('INPUT_INVALID', 'the text is only a secret, and recall stores no secrets: write the rule around it (say where the secret lives, not what it is)');
  }
  const store = await runtime.store();
  const embedder = await runtime.embedder();
  const provenance = origin.source === 'mcp' ? 'mcp' : 'manual';
  const candidate = { content: redacted.text, type: memory.type, importance: memory.importance ?? IMPORTANCE_BY_TYPE[memory.type], provenance } as const;
  const result = await runtime.withStoreLock(() =>
    storeMemories([candidate], origin, { embedder, store, ...decisionOptions(runtime.config, runtime.llm, runtime.log), clock: runtime.clock }),
  );
  const inserted = result.inserted[0];
  const matched = result.reinforced[0];
  return inserted
    ? {
        status: 'stored', id: inserted.id, namespace: origin.namespace, redactions: redacted.count,
        supersedes: result.superseded.map((s) => s.id), ...(inserted.status === QUARANTINED ? { quarantined: true } : {}),
        ...(inserted.wantsToReplace == null ? {} : { wantsToReplace: [...inserted.wantsToReplace] }),
      }
    : { status: 'matched', id: matched?.id ?? null, similarity: matched?.similarity ?? null, namespace: origin.namespace, redactions: redacted.count };
}
