/** One memory: every field, its text with hidden characters shown, its versions, the session it came from, edit and forget. */
import { html } from 'hono/html';
import { MEMORY_TYPES, type MemoryRecord } from '../core/memory.js';
import type { MemoryStore } from '../core/ports.js';
import { screenMemory } from '../store/screen-memory.js';
import { readVersionChain } from '../store/version-chain.js';
import type { Runtime } from '../app/runtime.js';
import { postButton, type Html } from './ui-layout.js';
import { memoryTable } from './page-memories.js';
import { whyHeld } from './page-review.js';
import { projectLabels } from './project-labels.js';
import { holdsHidden, labelText, spellHidden, visible } from './visible-text.js';

/** A session's memories are stored within hours of each other: those of its project this close to the memory. */
const SESSION_WINDOW_MS = 24 * 3_600_000;

/**
 * The project's memories stored within SESSION_WINDOW_MS of this one (every version), up to 200 of them,
 * on the list's sorted path: the newest 200 of a big project held none of an older memory's session.
 */
function readAround(store: MemoryStore, record: MemoryRecord): Promise<MemoryRecord[]> {
  const at = Date.parse(record.createdAt);
  if (Number.isNaN(at)) return store.list({ allVersions: true, limit: 200, namespace: record.namespace });
  return store.list({
    allVersions: true, limit: 200, namespace: record.namespace,
    since: new Date(at - SESSION_WINDOW_MS), olderThan: { createdAt: new Date(at + SESSION_WINDOW_MS).toISOString(), id: '' },
  });
}

export async function renderMemoryPage(record: MemoryRecord, token: string, runtime: Runtime): Promise<Html> {
  const store = await runtime.store();
  const [chain, groups, sameSession] = await Promise.all([
    readVersionChain(store, record),
    store.countByNamespaceAndType(),
    record.sessionId === null ? Promise.resolve([]) : readAround(store, record),
  ]);
  const label = projectLabels(groups.map((g) => g.namespace));
  const fromSession = sameSession.filter((r) => r.sessionId === record.sessionId && r.id !== record.id);
  const held = record.status === 'quarantined';
  const name = labelText(record.content);
  return html`<p class="text" id="text">${visible(record.content)}</p>
${holdsHidden(record.content) ? html`<p class="warn" id="hidden-note">This text holds invisible, bidirectional or control characters (or combining marks stacked high); each is shown above as a marked <code>\\u{…}</code> (or a count of the marks) where it sits.</p>` : ''}
<dl>
<dt>id</dt><dd>${record.id}</dd><dt>type</dt><dd>${record.type}</dd><dt>project</dt><dd>${label.html(record.namespace)} <span class="muted">(${visible(record.namespace)})</span></dd>
<dt>project folder</dt><dd>${record.projectRoot === null ? '-' : visible(record.projectRoot)}</dd><dt>source</dt><dd>${visible(record.source)}</dd><dt>words from</dt><dd>${record.provenance ?? 'not recorded'}</dd>
<dt>session</dt><dd>${record.sessionId === null ? '-' : visible(record.sessionId)}</dd><dt>created</dt><dd>${record.createdAt}</dd><dt>last seen</dt><dd>${record.lastSeenAt}</dd>
<dt>seen</dt><dd>${record.seenCount} time${record.seenCount === 1 ? '' : 's'}</dd><dt>embedder</dt><dd>${visible(record.embedder)}</dd>
<dt>status</dt><dd>${held ? html`<span class="tag held">held for review</span> ${whyHeld(record, screenMemory(record.content, record).reasons)}` : record.supersededBy ? html`replaced by <a href="/memory/${record.supersededBy}">${record.supersededBy}</a> at ${record.supersededAt ?? ''}` : 'current'}</dd>
</dl>
<h2>Edit</h2>
<form method="post" action="/memory/${record.id}/edit" id="edit">
<input type="hidden" name="_token" value="${token}">
<label for="edit-text" class="vh">Text of the memory</label><textarea id="edit-text" name="text" rows="4">${spellHidden(record.content)}</textarea><br>
${spellHidden(record.content) === record.content ? '' : html`<input type="hidden" name="spelled" value="1"><p class="muted" id="edit-spelled">Hidden characters are spelled out in the box as <code>\\u{…}</code>: delete a spelling to remove its character, leave it to keep it.</p>`}
<label for="edit-type" class="vh">Type</label><select id="edit-type" name="type">${MEMORY_TYPES.map((t) => html`<option${t === record.type ? ' selected' : ''}>${t}</option>`)}</select>
<button type="submit" aria-label="${`Save: ${name}`}">Save</button></form>
<div class="actions"><a href="/memory/${record.id}/forget" id="forget" class="danger" aria-label="${`Forget: ${name}`}">Forget this memory…</a>${held ? html` ${postButton('/review/approve', token, 'Approve', html`<input type="hidden" name="id" value="${record.id}"><input type="hidden" name="back" value="/memory/${record.id}">`, '', `Approve: ${name}`)}` : ''}</div>
<h2>Versions</h2>
${chain.older.length + chain.newer.length === 0 ? html`<p>No other version.</p>` : memoryTable([...chain.older, record, ...chain.newer], label)}
<h2>From the same session</h2>
${record.sessionId === null ? html`<p>Not from a session.</p>` : memoryTable(fromSession, label)}`;
}
