/**
 * The step before forgetting (from a memory's page or from review): the memories named, one button that
 * forgets them, and a way back. Forgetting can then be undone for a while (undo-stash.ts).
 */
import { html } from 'hono/html';
import type { MemoryRecord } from '../core/memory.js';
import type { Html } from './ui-layout.js';
import { labelText, visible } from './visible-text.js';

export function renderConfirmForget(records: readonly MemoryRecord[], token: string, back: string, cancel: string): Html {
  const n = records.length;
  return html`<p id="confirm-question">Forget ${n === 1 ? 'this memory' : `these ${n} memories`}? Sessions stop getting ${n === 1 ? 'it' : 'them'}; you can undo it for 30 minutes while this page runs.</p>
<ul id="to-forget">${records.map((r) => html`<li data-id="${r.id}"><a href="/memory/${r.id}">${visible(r.content)}</a></li>`)}</ul>
<form method="post" action="/forget" class="actions"><input type="hidden" name="_token" value="${token}"><input type="hidden" name="back" value="${back}">
${records.map((r) => html`<input type="hidden" name="id" value="${r.id}">`)}
<button type="submit" class="danger" id="confirm-forget" aria-label="${n === 1 ? `Forget: ${labelText(records[0]!.content)}` : `Forget these ${n} memories`}">Forget ${n === 1 ? 'it' : `these ${n}`}</button>
<a href="${cancel}" id="cancel">Cancel, keep ${n === 1 ? 'it' : 'them'}</a></form>`;
}
