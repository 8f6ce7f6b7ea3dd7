/**
 * Endless Mode's savings, the figures `recall endless stats --json` prints: by source and in total,
 * then per session, each drawn as a native <progress> bar (no chart script, nothing to load).
 */
import { html } from 'hono/html';
import { listRecords } from '../endless/endless-store.js';
import { estimateTokens } from '../endless/measure-conversation.js';
import { listSavings } from '../endless/savings-ledger.js';
import { summarizeRecords } from '../endless/summarize-records.js';
import { summarizeSources } from '../endless/summarize-sources.js';
import type { Runtime } from '../app/runtime.js';
import type { Html } from './ui-layout.js';
import { formatCount } from './format-count.js';
import { visible } from './visible-text.js';

export function renderEndlessPage(runtime: Runtime): Html {
  const home = runtime.loaded.paths.home;
  const records = listRecords(home);
  const entries = listSavings(home);
  if (records.length === 0 && entries.length === 0) return html`<p id="nothing">No compressed outputs yet. Endless Mode replaces a large tool output with a short observation while a session runs: switch it on with <code>recall install --endless</code>, or compress a past session with <code>recall endless fork &lt;transcript&gt;</code> (a copy; the original is never changed). Its savings show here.</p>`;
  const { sources, total } = summarizeSources(records, entries);
  const { sessions } = summarizeRecords(records);
  const bar = (original: number, saved: number) => html`<progress max="${Math.max(original, 1)}" value="${Math.max(saved, 0)}"></progress>`;
  return html`<p id="total">In total (the hook, forks and in-place rewrites): ${formatCount(total.savedChars)} characters saved of ${formatCount(total.originalChars)}, about ${formatCount(estimateTokens(total.savedChars))} tokens (${percent(total.savedShare)}).</p>
<h2>By source</h2><table><thead><tr><th>source</th><th>runs</th><th>outputs</th><th>original</th><th>shown</th><th>saved</th><th>on resume</th></tr></thead><tbody>
${[...sources, total].map((r) => html`<tr><td data-label="source">${r.source}</td><td data-label="runs">${r.runs ?? ''}</td><td data-label="outputs">${r.outputs}</td><td data-label="original">${formatCount(r.originalChars)}</td><td data-label="shown">${formatCount(r.shownChars)}</td><td data-label="saved">${bar(r.originalChars, r.savedChars)} ${percent(r.savedShare)}</td><td data-label="on resume">${r.resumeSavedChars === null ? '' : formatCount(r.resumeSavedChars)}</td></tr>`)}
</tbody></table>
<h2>Per session (outputs the hook replaced)</h2>
${sessions.length === 0 ? html`<p>None.</p>` : html`<table><thead><tr><th>session</th><th>outputs</th><th>observed</th><th>reduced</th><th>pending</th><th>original</th><th>shown</th><th>saved</th></tr></thead><tbody>
${sessions.map((r) => html`<tr><td data-label="session" class="name">${visible(r.sessionId)}</td><td data-label="outputs">${r.outputs}</td><td data-label="observed">${r.observations}</td><td data-label="reduced">${r.reductions}</td><td data-label="pending">${r.pending}</td><td data-label="original">${formatCount(r.originalChars)}</td><td data-label="shown">${formatCount(r.compressedChars)}</td><td data-label="saved">${bar(r.originalChars, r.savedChars)} ${percent(r.savedShare)}</td></tr>`)}
</tbody></table>`}`;
}

function percent(share: number): string {
  return `${Math.round(share * 100)}%`;
}
