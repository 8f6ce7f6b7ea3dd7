/**
 * The user's own edit of a memory's text or type (`recall ui`): redacted, re-embedded and written in
 * place under the store lock. Not screened: like `recall add`, these are the user's words.
 */
import { RecallError } from '../core/errors.js';
import { IMPORTANCE_BY_TYPE, type MemoryRecord, type MemoryType } from '../core/memory.js';
import { redactSecrets } from '../redact/redact-secrets.js';
import type { StoreParts } from './store-parts.js';
import { checkMemoryText } from './store-manual-memory.js';

export async function editMemory(id: string, change: { text: string; type: MemoryType }, runtime: Pick<StoreParts, 'store' | 'embedder' | 'withStoreLock'>): Promise<MemoryRecord> {
  const content = redactSecrets(checkMemoryText(change.text)).text;
  const store = await runtime.store();
  const embedder = await runtime.embedder();
  const [vector] = await embedder.embed([content]);
  if (vector === undefined) throw new RecallError('STORE_FAILED', 'the embedder returned no vector');
  return runtime.withStoreLock(async () => {
    const current = await store.get(id);
    if (current === null) throw new RecallError('NOT_FOUND', `no memory with id ${id}`);
    if (current.embedder !== embedder.id) throw new RecallError('EMBEDDER_MISMATCH', `memory ${id} was embedded with ${current.embedder}, the embedder now is ${embedder.id}; run recall reindex first`);
    // The user wrote these words now: they carry the user's authority.
    return store.edit(id, { content, type: change.type, importance: IMPORTANCE_BY_TYPE[change.type], vector, provenance: 'manual' });
  });
}
