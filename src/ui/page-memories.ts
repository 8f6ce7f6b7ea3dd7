/**
 * The memories page: hybrid search (as `recall search`) or the newest first, by project and type,
 * paginated by place (the last row shown, see memories-cursor.ts) rather than by a count of rows to skip.
 */
import { html } from 'hono/html';
import { MEMORY_TYPES, type MemoryRecord } from '../core/memory.js';
import type { ListCursor, MemoryFilters, MemoryStore } from '../core/ports.js';
import { searchMemories } from '../search/search-memories.js';
import type { Runtime } from '../app/runtime.js';
import { GLOBAL_NAMESPACE } from '../project/resolve-project.js';
import type { Html } from './ui-layout.js';
import { readCursor, writeCursor } from './memories-cursor.js';
import { projectLabels, type ProjectLabel } from './project-labels.js';
import { visible } from './visible-text.js';
import { formatCount } from './format-count.js';

export const PAGE_SIZE = 50;
const MAX_QUERY_CHARS = 2_000;

export interface MemoriesQuery {
  q: string;
  namespace: string;
  type: string;
  /** The page's number, for the reader only: the place below says which rows it holds. */
  page: number;
  /** The rows older than this place (the next page), or newer than it (the previous one); neither: the newest. */
  olderThan?: ListCursor;
  newerThan?: ListCursor;
}

export function readMemoriesQuery(params: (name: string) => string | undefined): MemoriesQuery {
  const page = Number(params('page') ?? '1');
  return {
    q: (params('q') ?? '').trim().slice(0, MAX_QUERY_CHARS),
    namespace: params('namespace') ?? '',
    type: params('type') ?? '',
    page: Number.isInteger(page) && page > 0 ? page : 1,
    olderThan: readCursor(params('older')),
    newerThan: readCursor(params('newer')),
  };
}

export async function renderMemoriesPage(query: MemoriesQuery, runtime: Runtime, token: string): Promise<Html> {
  const store = await runtime.store();
  const filters: MemoryFilters = {
    ...(query.namespace !== '' ? { namespace: query.namespace } : {}),
    ...((MEMORY_TYPES as readonly string[]).includes(query.type) ? { type: query.type } : {}),
  };
  const [groups, rows] = await Promise.all([store.countByNamespaceAndType(), readRows(query, filters, runtime)]);
  const namespaces = [...new Set(groups.map((g) => g.namespace))].sort();
  const label = projectLabels(namespaces);
  const total = groups.reduce((n, g) => n + g.count, 0);
  const matching = groups.filter((g) => (query.namespace === '' || g.namespace === query.namespace) && (query.type === '' || g.type === query.type)).reduce((n, g) => n + g.count, 0);
  const shown = rows.records;
  const link = (page: number, side: 'older' | 'newer', row: MemoryRecord) =>
    `/?${new URLSearchParams({ namespace: query.namespace, type: query.type, page: String(page), [side]: writeCursor(row) }).toString()}`;
  const newest = shown[0];
  const oldest = shown.at(-1);
  if (total === 0) return html`${emptyState()}${addForm(token, namespaces, label, true)}`;
  const filtered = query.namespace !== '' || query.type !== '';
  return html`<p class="totals" id="totals">${formatCount(total)} memor${total === 1 ? 'y' : 'ies'} in ${formatCount(namespaces.length)} project${namespaces.length === 1 ? '' : 's'}${filtered ? `; ${formatCount(matching)} match the filters` : ''}.</p>
<form method="get" action="/" class="filters">
<input type="search" name="q" value="${query.q}" placeholder="search by meaning and words" size="40" aria-label="search">
<select name="namespace" aria-label="project"><option value="">all projects</option>${namespaces.map((ns) => html`<option value="${ns}"${ns === query.namespace ? ' selected' : ''}>${label(ns)}</option>`)}</select>
<select name="type" aria-label="type"><option value="">all types</option>${MEMORY_TYPES.map((t) => html`<option${t === query.type ? ' selected' : ''}>${t}</option>`)}</select>
<button type="submit">${query.q === '' ? 'Filter' : 'Search'}</button></form>
<p class="muted">${rows.searched ? `${shown.length} best match${shown.length === 1 ? '' : 'es'} (hybrid search)` : `newest first, page ${rows.page}`}</p>
${rows.searched && shown.length > 0 && !rows.wordsMatched ? html`<p id="no-word-hits">No memory holds the words “${visible(query.q)}”: below are the nearest by meaning, which may not be related. Try other words, or <a href="/">show all memories</a>.</p>` : ''}
${shown.length === 0 ? noneFound(query, label) : memoryTable(shown, label, rows.scores)}
${rows.searched ? '' : html`<p>${rows.newer && newest ? html`<a href="${link(rows.page - 1, 'newer', newest)}" id="newer">← newer</a> ` : ''}${rows.older && oldest ? html`<a href="${link(rows.page + 1, 'older', oldest)}" id="older">older →</a>` : ''}</p>`}
${addForm(token, namespaces, label, false)}`;
}

/** A search or filter that finds nothing in a store that has memories: what to try next. */
function noneFound(query: MemoriesQuery, label: ProjectLabel): Html {
  const where = [query.namespace === '' ? '' : `in ${label(query.namespace)}`, query.type === '' ? '' : `of type ${query.type}`].filter((s) => s !== '').join(' ');
  return html`<p id="no-hits">${query.q === '' ? `No memory ${where}.` : html`No memory matches “${visible(query.q)}”${where === '' ? '' : ` ${where}`}.`} Try other words or ${query.namespace === '' && query.type === '' ? 'fewer of them' : 'all projects and types'}, or <a href="/">show all memories</a>.</p>`;
}

/** What an empty store should say: how memories get there. */
function emptyState(): Html {
  return html`<div id="empty"><p><strong>No memories yet.</strong> recall stores the rules and decisions of your coding sessions when a session ends.</p>
<ol><li>Run <code>recall install</code> once, so your agent's sessions are captured (<code>recall doctor</code> checks the setup).</li>
<li>Work as usual; after a session ends, its memories appear here within a minute or two.</li>
<li>Or add one yourself below (or with <code>recall add "..."</code>).</li></ol></div>`;
}

/** A memory written here: the same path as `recall add` (redacted, deduplicated, stored with the user's authority). */
function addForm(token: string, namespaces: readonly string[], label: ProjectLabel, open: boolean): Html {
  const choices = [GLOBAL_NAMESPACE, ...namespaces.filter((ns) => ns !== GLOBAL_NAMESPACE)];
  return html`<details id="add"${open ? ' open' : ''}><summary>Add a memory</summary>
<form method="post" action="/memory/add"><input type="hidden" name="_token" value="${token}">
<p><label for="add-text">Text (a rule, preference or decision, a sentence or two)</label><br><textarea id="add-text" name="text" rows="3" required maxlength="2000"></textarea></p>
<p><label for="add-type">Type</label> <select id="add-type" name="type">${MEMORY_TYPES.map((t) => html`<option${t === 'preference' ? ' selected' : ''}>${t}</option>`)}</select>
<label for="add-project">Project</label> <select id="add-project" name="namespace">${choices.map((ns) => html`<option value="${ns}">${label(ns)}</option>`)}</select>
<button type="submit">Add</button></p></form></details>`;
}

interface Rows {
  records: MemoryRecord[];
  scores: Map<string, number>;
  searched: boolean;
  /** A search whose words some memory holds (its text side found any); false: the hits are by meaning alone. */
  wordsMatched: boolean;
  /** The page number shown, and whether there are newer and older pages. */
  page: number;
  newer: boolean;
  older: boolean;
}

async function readRows(query: MemoriesQuery, filters: MemoryFilters, runtime: Runtime): Promise<Rows> {
  const store = await runtime.store();
  if (query.q === '') return readPage(query, filters, store);
  const hits = await searchMemories(
    { query: query.q, mode: 'hybrid', filters, limit: PAGE_SIZE, minScore: runtime.config.search.minScore },
    { store, embedder: runtime.embedder },
  );
  const wordsMatched = hits.some((h) => (h.textScore ?? 0) > 0);
  return { records: hits.map((h) => h.record), scores: new Map(hits.map((h) => [h.record.id, h.score])), searched: true, wordsMatched, page: 1, newer: false, older: false };
}

/** One page of the newest-first list; one row past the page says whether there is another page that way. */
async function readPage(query: MemoriesQuery, filters: MemoryFilters, store: MemoryStore): Promise<Rows> {
  const page = { scores: new Map<string, number>(), searched: false, wordsMatched: false };
  if (query.newerThan !== undefined) {
    const newer = await store.list({ ...filters, newerThan: query.newerThan, limit: PAGE_SIZE + 1 });
    // Fewer than a page and one newer than the place: that is the newest page, shown whole from the top.
    if (newer.length > PAGE_SIZE) return { ...page, records: newer.slice(1), page: Math.max(2, query.page), newer: true, older: true };
    return readPage({ ...query, newerThan: undefined, olderThan: undefined, page: 1 }, filters, store);
  }
  const rows = await store.list({ ...filters, ...(query.olderThan ? { olderThan: query.olderThan } : {}), limit: PAGE_SIZE + 1 });
  const first = query.olderThan === undefined;
  return { ...page, records: rows.slice(0, PAGE_SIZE), page: first ? 1 : Math.max(2, query.page), newer: !first, older: rows.length > PAGE_SIZE };
}

export function memoryTable(records: readonly MemoryRecord[], label: ProjectLabel, scores: Map<string, number> = new Map()): Html {
  if (records.length === 0) return html`<p class="muted">None here.</p>`;
  return html`<table class="memories"><thead><tr>${scores.size > 0 ? html`<th>score</th>` : ''}<th>memory</th><th>type</th><th>project</th><th>from</th><th>seen</th><th>created</th><th>last seen</th></tr></thead><tbody>
${records.map((r) => html`<tr class="${r.status === 'quarantined' ? 'quarantined' : ''}" data-id="${r.id}">${scores.size > 0 ? html`<td data-label="score">${(scores.get(r.id) ?? 0).toFixed(2)}</td>` : ''}
<td class="text"><a href="/memory/${r.id}">${visible(r.content)}</a>${r.status === 'quarantined' ? html` <span class="tag held">held for review</span>` : ''}${r.supersededBy ? html` <span class="tag">replaced</span>` : ''}</td>
<td data-label="type">${r.type}</td><td data-label="project" class="name">${label.html(r.namespace)}</td><td data-label="from" class="name">${visible(r.provenance ?? r.source)}</td><td data-label="seen">${r.seenCount}</td><td data-label="created">${r.createdAt.slice(0, 16).replace('T', ' ')}</td><td data-label="last seen">${r.lastSeenAt.slice(0, 16).replace('T', ' ')}</td></tr>`)}
</tbody></table>`;
}
