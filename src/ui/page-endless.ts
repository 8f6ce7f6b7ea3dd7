/** Endless mode's savings per session and in total, from the savings ledger, drawn with <progress> bars. */
import { html } from 'hono/html';
import { listSavings } from '../endless/savings-ledger.js';
import type { Runtime } from '../worker/runtime.js';
import type { Html } from './ui-layout.js';

export function renderEndlessPage(runtime: Runtime): Html {
  const entries = listSavings(runtime.loaded.paths.home).slice().reverse();
  if (entries.length === 0) return html`<p>No Endless savings recorded yet (recall endless fork or backfill records them).</p>`;
  const original = entries.reduce((sum, e) => sum + e.originalChars, 0);
  const shown = entries.reduce((sum, e) => sum + e.shownChars, 0);
  return html`<p id="total">In total: ${entries.length} runs, tool output ${original.toLocaleString('en')} → ${shown.toLocaleString('en')} characters (${percent(original - shown, original)} saved).</p>
<table><thead><tr><th>when</th><th>session</th><th>how</th><th>outputs</th><th>characters before → after</th><th>saved</th></tr></thead><tbody>
${entries.map((e) => {
    const before = e.resume?.beforeChars ?? e.originalChars;
    const after = e.resume?.afterChars ?? e.shownChars;
    return html`<tr><td>${e.at.slice(0, 19).replace('T', ' ')}</td><td>${e.sessionId}</td><td>${e.source}</td><td>${e.outputs}</td><td>${before.toLocaleString('en')} → ${after.toLocaleString('en')}</td>
<td><progress max="${Math.max(before, 1)}" value="${Math.max(before - after, 0)}"></progress> ${percent(before - after, before)}</td></tr>`;
  })}</tbody></table>`;
}

function percent(part: number, whole: number): string {
  return whole <= 0 ? '0%' : `${Math.round((100 * part) / whole)}%`;
}
