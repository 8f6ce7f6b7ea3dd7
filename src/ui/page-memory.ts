/** One memory: every field, its versions, the session it came from, edit and forget. */
import { html } from 'hono/html';
import { MEMORY_TYPES, type MemoryRecord } from '../core/memory.js';
import { quarantineReasons } from '../store/quarantine-reasons.js';
import { readVersionChain } from '../store/version-chain.js';
import type { Runtime } from '../app/runtime.js';
import { postButton, type Html } from './ui-layout.js';
import { memoryTable } from './page-memories.js';

export async function renderMemoryPage(record: MemoryRecord, token: string, runtime: Runtime): Promise<Html> {
  const store = await runtime.store();
  const chain = await readVersionChain(store, record);
  const fromSession = record.sessionId === null ? [] : (await store.list({ allVersions: true, limit: 200, namespace: record.namespace })).filter((r) => r.sessionId === record.sessionId && r.id !== record.id);
  const held = record.status === 'quarantined';
  return html`<dl>
<dt>id</dt><dd>${record.id}</dd><dt>type</dt><dd>${record.type}</dd><dt>project</dt><dd>${record.namespace}</dd>
<dt>project folder</dt><dd>${record.projectRoot ?? '-'}</dd><dt>source</dt><dd>${record.source}</dd><dt>words from</dt><dd>${record.provenance ?? 'not recorded'}</dd>
<dt>session</dt><dd>${record.sessionId ?? '-'}</dd><dt>created</dt><dd>${record.createdAt}</dd><dt>last seen</dt><dd>${record.lastSeenAt}</dd>
<dt>seen</dt><dd>${record.seenCount} time${record.seenCount === 1 ? '' : 's'}</dd><dt>embedder</dt><dd>${record.embedder}</dd>
<dt>status</dt><dd>${held ? html`<span class="tag held">held for review</span> ${quarantineReasons(record).join('; ')}` : record.supersededBy ? html`replaced by <a href="/memory/${record.supersededBy}">${record.supersededBy}</a> at ${record.supersededAt ?? ''}` : 'current'}</dd>
</dl>
<h2>Text</h2>
<form method="post" action="/memory/${record.id}/edit" id="edit">
<input type="hidden" name="_token" value="${token}">
<textarea name="text" rows="4" aria-label="text">${record.content}</textarea><br>
<select name="type" aria-label="type">${MEMORY_TYPES.map((t) => html`<option${t === record.type ? ' selected' : ''}>${t}</option>`)}</select>
<button type="submit">Save</button></form>
<p>${postButton(`/memory/${record.id}/forget`, token, 'Forget this memory', '', 'danger')}${held ? html` ${postButton(`/review/approve`, token, 'Approve', html`<input type="hidden" name="id" value="${record.id}">`)}` : ''}</p>
<h2>Versions</h2>
${chain.older.length + chain.newer.length === 0 ? html`<p>No other version.</p>` : memoryTable([...chain.older, record, ...chain.newer])}
<h2>From the same session</h2>
${record.sessionId === null ? html`<p>Not from a session.</p>` : memoryTable(fromSession)}`;
}
