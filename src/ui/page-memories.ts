/** The memories page: hybrid search (as `recall search`) or the newest first, by project and type, paginated. */
import { html } from 'hono/html';
import { MEMORY_TYPES, type MemoryRecord } from '../core/memory.js';
import type { MemoryFilters } from '../core/ports.js';
import { searchMemories } from '../search/search-memories.js';
import type { Runtime } from '../app/runtime.js';
import type { Html } from './ui-layout.js';

export const PAGE_SIZE = 50;
const MAX_QUERY_CHARS = 2_000;

export interface MemoriesQuery {
  q: string;
  namespace: string;
  type: string;
  page: number;
}

export function readMemoriesQuery(params: (name: string) => string | undefined): MemoriesQuery {
  const page = Number(params('page') ?? '1');
  return {
    q: (params('q') ?? '').trim().slice(0, MAX_QUERY_CHARS),
    namespace: params('namespace') ?? '',
    type: params('type') ?? '',
    page: Number.isInteger(page) && page > 0 ? page : 1,
  };
}

export async function renderMemoriesPage(query: MemoriesQuery, runtime: Runtime): Promise<Html> {
  const store = await runtime.store();
  const filters: MemoryFilters = {
    ...(query.namespace !== '' ? { namespace: query.namespace } : {}),
    ...((MEMORY_TYPES as readonly string[]).includes(query.type) ? { type: query.type } : {}),
  };
  const [groups, rows] = await Promise.all([store.countByNamespaceAndType(), readRows(query, filters, runtime)]);
  const namespaces = [...new Set(groups.map((g) => g.namespace))].sort();
  const more = rows.records.length > PAGE_SIZE;
  const shown = rows.records.slice(0, PAGE_SIZE);
  const link = (page: number) => `/?${new URLSearchParams({ q: query.q, namespace: query.namespace, type: query.type, page: String(page) }).toString()}`;
  return html`<form method="get" action="/" class="filters">
<input type="search" name="q" value="${query.q}" placeholder="search by meaning and words" size="40" aria-label="search">
<select name="namespace" aria-label="project"><option value="">all projects</option>${namespaces.map((ns) => html`<option value="${ns}"${ns === query.namespace ? ' selected' : ''}>${ns}</option>`)}</select>
<select name="type" aria-label="type"><option value="">all types</option>${MEMORY_TYPES.map((t) => html`<option${t === query.type ? ' selected' : ''}>${t}</option>`)}</select>
<button type="submit">${query.q === '' ? 'Filter' : 'Search'}</button></form>
<p class="muted">${rows.searched ? `${shown.length} best match${shown.length === 1 ? '' : 'es'} (hybrid search)` : `newest first, page ${query.page}`}</p>
${memoryTable(shown, rows.scores)}
${rows.searched ? '' : html`<p>${query.page > 1 ? html`<a href="${link(query.page - 1)}">← newer</a> ` : ''}${more ? html`<a href="${link(query.page + 1)}" id="older">older →</a>` : ''}</p>`}`;
}

async function readRows(query: MemoriesQuery, filters: MemoryFilters, runtime: Runtime): Promise<{ records: MemoryRecord[]; scores: Map<string, number>; searched: boolean }> {
  const store = await runtime.store();
  if (query.q === '') {
    // One row past the page says whether there is an older page.
    const all = await store.list({ ...filters, limit: query.page * PAGE_SIZE + 1 });
    return { records: all.slice((query.page - 1) * PAGE_SIZE), scores: new Map(), searched: false };
  }
  const hits = await searchMemories(
    { query: query.q, mode: 'hybrid', filters, limit: PAGE_SIZE, minScore: runtime.config.search.minScore },
    { store, embedder: runtime.embedder },
  );
  return { records: hits.map((h) => h.record), scores: new Map(hits.map((h) => [h.record.id, h.score])), searched: true };
}

export function memoryTable(records: readonly MemoryRecord[], scores: Map<string, number> = new Map()): Html {
  if (records.length === 0) return html`<p>No memories.</p>`;
  return html`<table class="memories"><thead><tr>${scores.size > 0 ? html`<th>score</th>` : ''}<th>memory</th><th>type</th><th>project</th><th>from</th><th>seen</th><th>created</th><th>last seen</th></tr></thead><tbody>
${records.map((r) => html`<tr class="${r.status === 'quarantined' ? 'quarantined' : ''}" data-id="${r.id}">${scores.size > 0 ? html`<td>${(scores.get(r.id) ?? 0).toFixed(2)}</td>` : ''}
<td class="text"><a href="/memory/${r.id}">${r.content}</a>${r.status === 'quarantined' ? html` <span class="tag held">held for review</span>` : ''}${r.supersededBy ? html` <span class="tag">replaced</span>` : ''}</td>
<td>${r.type}</td><td>${r.namespace}</td><td>${r.provenance ?? r.source}</td><td>${r.seenCount}</td><td>${r.createdAt.slice(0, 16).replace('T', ' ')}</td><td>${r.lastSeenAt.slice(0, 16).replace('T', ' ')}</td></tr>`)}
</tbody></table>`;
}
