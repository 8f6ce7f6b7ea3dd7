/**
 * Quarantined memories: filtered by why they were held, project and source, a page at a time, with
 * checkboxes for approving or forgetting many at once and a button pair on each row. One form holds the
 * page (no script): a row's button sends `one=<action>:<id>`, the bulk buttons send the checked ids.
 * Forgetting goes through the confirm step (page-confirm-forget.ts). Each row is `reviewRow`.
 */
import { html } from 'hono/html';
import type { MemoryRecord } from '../core/memory.js';
import { REASON_TEXT, type QuarantineReason } from '../store/screen-memory.js';
import type { Runtime } from '../app/runtime.js';
import type { Html } from './ui-layout.js';
import { projectLabels, type ProjectLabel } from './project-labels.js';
import type { ScreenMemo } from './screen-memo.js';
import type { Cached } from './versioned-cache.js';
import { labelText, spelled, visible } from './visible-text.js';
import { formatCount } from './format-count.js';

export const REVIEW_PAGE_SIZE = 50;
/** Held memories read for one review page: far more than a review ever holds; the count says when there are more. */
export const REVIEW_LIMIT = 20_000;

export interface ReviewQuery {
  reason: string;
  namespace: string;
  source: string;
  page: number;
}

export function readReviewQuery(params: (name: string) => string | undefined): ReviewQuery {
  const page = Number(params('page') ?? '1');
  return { reason: params('reason') ?? '', namespace: params('namespace') ?? '', source: params('source') ?? '', page: Number.isInteger(page) && page > 0 ? page : 1 };
}

export function reviewPath(query: ReviewQuery, page = query.page): string {
  const params = new URLSearchParams();
  for (const name of ['reason', 'namespace', 'source'] as const) if (query[name] !== '') params.set(name, query[name]);
  if (page > 1) params.set('page', String(page));
  const text = params.toString();
  return text === '' ? '/review' : `/review?${text}`;
}

export interface Held {
  record: MemoryRecord;
  reasons: QuarantineReason[];
}

/**
 * Held memories not yet screened (screen-memo.ts) that a page screens before it answers; with more, a
 * page without a reason filter shows the reasons of its own rows and counts them once all are screened.
 */
const SCREEN_INLINE = 100;

export async function renderReviewPage(query: ReviewQuery, token: string, runtime: Runtime, cached: Cached, memo: ScreenMemo, idle: () => boolean): Promise<Html> {
  const store = await runtime.store();
  const [records, groups] = await Promise.all([readHeld(runtime, cached), store.countByNamespaceAndType()]);
  if (records.length === 0) return html`<p id="nothing">Nothing to review: no memory is held back, so there is nothing to do here. Memories that look like instructions to the agent, hold hidden characters or were written for every project by an agent wait here before any session sees them; the count next to Review says when one does. <a href="/">All memories</a></p>`;
  const counted = query.reason !== '' || records.filter((r) => memo.known(r) === undefined).length <= SCREEN_INLINE;
  if (counted) await memo.screenAll(records);
  else memo.screenAll(records, idle).catch(() => undefined); // Goes on between requests; a later look counts.
  const label = projectLabels(groups.map((g) => g.namespace));
  const matching = records.filter((r) => (query.namespace === '' || r.namespace === query.namespace) && (query.source === '' || r.source === query.source) && (query.reason === '' || memo.reasonsOf(r).includes(query.reason as QuarantineReason)));
  const pages = Math.max(1, Math.ceil(matching.length / REVIEW_PAGE_SIZE));
  const page = Math.min(query.page, pages);
  const shown = matching.slice((page - 1) * REVIEW_PAGE_SIZE, page * REVIEW_PAGE_SIZE).map((record) => ({ record, reasons: memo.reasonsOf(record) }));
  const here = reviewPath(query, page);
  return html`<p>No session sees these until approved.</p>
${filterForm(query, records, counted ? memo.reasonsOf : null, label)}
<p class="totals" id="totals">${formatCount(matching.length)} of ${formatCount(records.length)}${records.length >= REVIEW_LIMIT ? '+' : ''} held memories${matching.length === records.length ? '' : ' match the filters'}; page ${page} of ${pages}.</p>
${shown.length === 0 ? html`<p id="none-match">None matches these filters. <a href="/review">Show all held memories</a>.</p>` : html`<form method="post" action="/review/decide" id="review-form"><input type="hidden" name="_token" value="${token}"><input type="hidden" name="back" value="${here}">
<div class="actions"><button type="submit" name="action" value="approve" id="approve-selected">Approve selected</button> <button type="submit" name="action" value="forget" class="danger" id="forget-selected">Forget selected…</button></div>
<table class="memories"><thead><tr><th><span class="vh">select</span></th><th>memory</th><th>why</th><th>project</th><th>from</th><th><span class="vh">actions</span></th></tr></thead><tbody>
${shown.map((h) => reviewRow(h, label))}</tbody></table></form>`}
${pager(query, page, pages)}`;
}

/** Every held memory (up to REVIEW_LIMIT), newest first; the rows kept while the table is the same. */
export async function readHeld(runtime: Runtime, cached: Cached): Promise<MemoryRecord[]> {
  return cached('held', async () => (await runtime.store()).list({ quarantine: 'only', limit: REVIEW_LIMIT }));
}

/** One held memory: its checkbox, text, reasons, project, source and its own two buttons, all named after it. */
export function reviewRow({ record: r, reasons }: Held, label: ProjectLabel): Html {
  const name = labelText(r.content);
  return html`<tr class="quarantined" data-id="${r.id}"><td><input type="checkbox" name="id" value="${r.id}" aria-label="${`Select: ${name}`}"></td>
<td class="text"><a href="/memory/${r.id}">${visible(r.content)}</a> <span class="tag held">held for review</span></td><td data-label="why">${whyHeld(r, reasons)}</td><td data-label="project" class="name">${label.html(r.namespace)}</td><td data-label="from" class="name">${visible(r.provenance ?? r.source)}</td>
<td><button type="submit" name="one" value="approve:${r.id}" aria-label="${`Approve: ${name}`}">Approve</button> <button type="submit" name="one" value="forget:${r.id}" class="danger" aria-label="${`Forget: ${name}`}">Forget…</button></td></tr>`;
}

/**
 * Why a memory is held, in words: what the screen finds in it, and the memories it proposes to replace
 * (a change to memories of higher authority waits for the user), each linked. A memory held when it was
 * stored that the screen finds nothing in now says so, rather than nothing.
 */
export function whyHeld(r: MemoryRecord, reasons: readonly QuarantineReason[]): Html {
  const words = reasons.map((reason) => REASON_TEXT[reason]).join('; ');
  const replaces = r.wantsToReplace ?? [];
  if (words === '' && replaces.length === 0) return html`held when it was stored; the screen finds nothing in it now`;
  const proposal = replaces.length === 0 ? '' : html`${words === '' ? '' : '; '}wants to replace ${replaces.map((id, i) => html`${i > 0 ? ', ' : ''}<a href="/memory/${id}">${id}</a>`)}`;
  return html`${words}${proposal}`;
}

/** The filters, each choice with its count; reasons without counts while they are still being screened (`reasonsOf` null). */
function filterForm(query: ReviewQuery, held: readonly MemoryRecord[], reasonsOf: ((r: MemoryRecord) => QuarantineReason[]) | null, label: ProjectLabel): Html {
  const tally = <K extends string>(keys: K[]): Array<[K, number]> => [...keys.reduce((m, k) => m.set(k, (m.get(k) ?? 0) + 1), new Map<K, number>())].sort((a, b) => b[1] - a[1]);
  const option = (value: string, text: string, n: number | null, chosen: string) => html`<option value="${value}"${value === chosen ? ' selected' : ''}>${text}${n === null ? '' : ` (${n})`}</option>`;
  const reasons: Array<[QuarantineReason, number | null]> = reasonsOf === null ? (Object.keys(REASON_TEXT) as QuarantineReason[]).map((k) => [k, null]) : tally(held.flatMap(reasonsOf));
  return html`<form method="get" action="/review" class="filters">
<label for="f-reason" class="vh">why held</label><select id="f-reason" name="reason"><option value="">every reason</option>${reasons.map(([k, n]) => option(k, REASON_TEXT[k], n, query.reason))}</select>
<label for="f-project" class="vh">project</label><select id="f-project" name="namespace"><option value="">all projects</option>${tally(held.map((h) => h.namespace)).map(([k, n]) => option(k, label(k), n, query.namespace))}</select>
<label for="f-source" class="vh">source</label><select id="f-source" name="source"><option value="">every source</option>${tally(held.map((h) => h.source)).map(([k, n]) => option(k, spelled(k), n, query.source))}</select>
<button type="submit">Filter</button></form>${reasonsOf === null ? html`<p class="muted" id="screening">Counting the reasons of ${formatCount(held.length)} held memories; they show here on the next look.</p>` : ''}`;
}

function pager(query: ReviewQuery, page: number, pages: number): Html | '' {
  if (pages <= 1) return '';
  return html`<p>${page > 1 ? html`<a href="${reviewPath(query, page - 1)}" id="review-prev">← previous</a> ` : ''}${page < pages ? html`<a href="${reviewPath(query, page + 1)}" id="review-next">next →</a>` : ''}</p>`;
}

export async function countPending(runtime: Runtime, cached?: Cached): Promise<number> {
  const count = async () => (await runtime.store()).count({ quarantine: 'only' });
  return cached === undefined ? count() : cached('pending', count);
}
