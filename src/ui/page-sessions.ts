/** Captures from the worker's history, newest first, and the failed jobs with their reason and a retry button. */
import { basename } from 'node:path';
import { html } from 'hono/html';
import { Spool } from '../queue/spool.js';
import { readHistory } from '../worker/history.js';
import type { Runtime } from '../app/runtime.js';
import { postButton, type Html } from './ui-layout.js';

const SHOWN = 200;

export function renderSessionsPage(token: string, runtime: Runtime, retried?: string): Html {
  const { paths } = runtime.loaded;
  const history = readHistory(paths.historyFile).reverse().slice(0, SHOWN);
  const failed = new Spool(paths).list('failed');
  const moved = retried === undefined ? null : Number(retried);
  return html`${moved !== null && Number.isInteger(moved) ? html`<p id="retried">${moved === 0 ? 'No failed capture to retry.' : `${moved} capture${moved === 1 ? '' : 's'} queued again; a worker is running them.`}</p>` : ''}
<h2>Failed captures</h2>
${failed.length === 0 ? html`<p id="no-failed">None.</p>` : html`<table><thead><tr><th>job</th><th>session</th><th>queued</th><th>attempts</th><th>reason</th></tr></thead><tbody>
${failed.map((f) => html`<tr><td>${basename(f.file)}</td><td>${f.job?.sessionId ?? '-'}</td><td>${f.job?.enqueuedAt ?? '-'}</td><td>${f.job?.attempts ?? '-'}</td><td class="text">${f.job ? (f.job.lastError ?? 'unknown') : 'not a job file (damaged)'}</td></tr>`)}
</tbody></table><p>${postButton('/sessions/retry', token, 'Retry failed captures')}</p>`}
<h2>Captures</h2>
${history.length === 0 ? html`<p>No capture yet.</p>` : html`<table><thead><tr><th>when</th><th>project</th><th>session</th><th>result</th><th>stored</th><th>reinforced</th><th>superseded</th><th>held for review</th><th>took</th></tr></thead><tbody>
${history.map((h) => html`<tr><td>${h.at.slice(0, 19).replace('T', ' ')}</td><td>${h.namespace}</td><td>${h.sessionId ?? '-'}</td><td>${h.status}</td><td>${h.inserted}</td><td>${h.reinforced}</td><td>${h.superseded ?? '-'}</td><td>${h.quarantined ?? '-'}</td><td>${(h.ms / 1000).toFixed(1)} s</td></tr>`)}
</tbody></table>`}`;
}
