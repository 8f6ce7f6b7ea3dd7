/** Quarantined memories: approve or forget, one click each. */
import { html } from 'hono/html';
import { quarantineReasons } from '../store/quarantine-reasons.js';
import type { Runtime } from '../app/runtime.js';
import { postButton, type Html } from './ui-layout.js';

/** More than a review screen shows at once; the count says when there are more. */
export const REVIEW_LIMIT = 500;

export async function renderReviewPage(token: string, runtime: Runtime): Promise<Html> {
  const records = await (await runtime.store()).list({ quarantine: 'only', limit: REVIEW_LIMIT });
  if (records.length === 0) return html`<p id="nothing">Nothing to review: no memory is held back.</p>`;
  return html`<p>No session sees these until approved.</p><table class="memories"><thead><tr><th>memory</th><th>why</th><th>project</th><th>from</th><th></th></tr></thead><tbody>
${records.map((r) => {
    const id = html`<input type="hidden" name="id" value="${r.id}">`;
    return html`<tr data-id="${r.id}"><td class="text"><a href="/memory/${r.id}">${r.content}</a></td><td>${quarantineReasons(r).join('; ')}</td><td>${r.namespace}</td><td>${r.provenance ?? r.source}</td>
<td>${postButton('/review/approve', token, 'Approve', id)} ${postButton('/review/forget', token, 'Forget', id, 'danger')}</td></tr>`;
  })}</tbody></table>`;
}

export async function countPending(runtime: Runtime): Promise<number> {
  return (await (await runtime.store()).count({ quarantine: 'only' }));
}
