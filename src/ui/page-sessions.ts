/**
 * Captures from the worker's history, newest first; the captures waiting in the queue (new ones, and
 * those waiting to try again, for a model say, with their next try and last error); the failed jobs with
 * their reason and a retry button.
 */
import { basename } from 'node:path';
import { html } from 'hono/html';
import { Spool, type SpoolEntry } from '../queue/spool.js';
import { readHistory } from '../worker/history.js';
import type { Runtime } from '../app/runtime.js';
import { postButton, type Html } from './ui-layout.js';
import { projectLabels } from './project-labels.js';
import { visible } from './visible-text.js';

const SHOWN = 200;

export function renderSessionsPage(token: string, runtime: Runtime, retried?: string): Html {
  const { paths } = runtime.loaded;
  const all = readHistory(paths.historyFile);
  const history = all.slice(-SHOWN).reverse();
  const spool = new Spool(paths);
  const failed = spool.list('failed');
  const waiting = [...spool.list('processing'), ...spool.list('pending')];
  const label = projectLabels(history.map((h) => h.namespace));
  const moved = retried === undefined ? null : Number(retried);
  return html`${moved !== null && Number.isInteger(moved) ? html`<p id="retried" class="flash" role="status">${moved === 0 ? 'No failed capture to retry.' : `${moved} capture${moved === 1 ? '' : 's'} queued again; a worker is running them (see Waiting below).`}</p>` : ''}
<h2>Waiting (${waiting.length})</h2>
${waiting.length === 0 ? html`<p id="no-waiting" class="muted">None: every capture has run.</p>` : waitingTable(waiting)}
<h2>Failed captures (${failed.length})</h2>
${failed.length === 0 ? html`<p id="no-failed">None.</p>` : html`<table><thead><tr><th>job</th><th>session</th><th>queued</th><th>attempts</th><th>reason</th></tr></thead><tbody>
${failed.map((f) => html`<tr><td data-label="job" class="name">${visible(basename(f.file))}</td><td data-label="session" class="name">${visible(f.job?.sessionId ?? '-')}</td><td data-label="queued">${f.job?.enqueuedAt ?? '-'}</td><td data-label="attempts">${f.job?.attempts ?? '-'}</td><td data-label="reason" class="text">${visible(f.job ? (f.job.lastError ?? 'unknown') : 'not a job file (damaged)')}</td></tr>`)}
</tbody></table><p>${postButton('/sessions/retry', token, 'Retry failed captures')}</p>`}
<h2>Captures (${all.length}${all.length > SHOWN ? `, the newest ${SHOWN} shown` : ''})</h2>
${history.length === 0 ? html`<p id="no-captures">No capture yet. Sessions are captured when they end once <code>recall install</code> has set up your agent's hooks (<code>recall doctor</code> checks it); <code>recall capture &lt;transcript&gt;</code> captures one by hand.</p>` : html`<table><thead><tr><th>when</th><th>project</th><th>session</th><th>result</th><th>stored</th><th>reinforced</th><th>superseded</th><th>held for review</th><th>took</th></tr></thead><tbody>
${history.map((h) => html`<tr><td data-label="when">${h.at.slice(0, 19).replace('T', ' ')}</td><td data-label="project" class="name">${label.html(h.namespace)}</td><td data-label="session" class="name">${visible(h.sessionId ?? '-')}</td><td data-label="result">${h.status}</td><td data-label="stored">${h.inserted}</td><td data-label="reinforced">${h.reinforced}</td><td data-label="superseded">${h.superseded ?? '-'}</td><td data-label="held for review">${h.quarantined ?? '-'}</td><td data-label="took">${(h.ms / 1000).toFixed(1)} s</td></tr>`)}
</tbody></table>`}`;
}

function waitingTable(entries: readonly SpoolEntry[]): Html {
  const now = Date.now();
  const state = (e: SpoolEntry): string => {
    if (e.folder === 'processing') return 'running now';
    const next = e.job?.notBefore === null || e.job?.notBefore === undefined ? NaN : Date.parse(e.job.notBefore);
    if (Number.isNaN(next) || next <= now) return e.job?.attempts ? 'due: tries again when a worker runs' : 'due: runs when a worker runs';
    return `waits until ${new Date(next).toISOString().slice(0, 19).replace('T', ' ')}`;
  };
  return html`<table id="waiting"><thead><tr><th>job</th><th>session</th><th>queued</th><th>attempts</th><th>state</th><th>last error</th></tr></thead><tbody>
${entries.map((e) => html`<tr><td data-label="job" class="name">${visible(basename(e.file))}</td><td data-label="session" class="name">${visible(e.job?.sessionId ?? '-')}</td><td data-label="queued">${e.job?.enqueuedAt ?? '-'}</td><td data-label="attempts">${e.job?.attempts ?? '-'}</td><td data-label="state">${state(e)}</td><td data-label="last error" class="text">${visible(e.job?.lastError ?? '')}</td></tr>`)}
</tbody></table>`;
}
