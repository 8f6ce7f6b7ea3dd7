/**
 * What SessionStart hands a session of each project now: the hook's own reading of the context file,
 * wrapped as the hook wraps it, with its budget; whether the store has changed since the file was
 * written (a fresh render, as the next refresh would write it, differs); and, from that fresh render,
 * each line with a link to its memory and every memory left out, linked too.
 */
import { html } from 'hono/html';
import type { Logger } from '../core/log.js';
import type { ListOptions } from '../core/ports.js';
import { ADDITIONAL_CONTEXT_CAP } from '../context/context-file.js';
import { projectNameOf } from '../context/refresh-context.js';
import { explainContextTarget } from '../context/render-targets.js';
import { readContextText } from '../hook/session-start.js';
import { GLOBAL_NAMESPACE } from '../project/resolve-project.js';
import { wrapRecallContext } from '../transcript/recall-markers.js';
import type { Runtime } from '../app/runtime.js';
import type { Html } from './ui-layout.js';
import { projectLabels } from './project-labels.js';
import type { Cached } from './versioned-cache.js';
import { visible } from './visible-text.js';

/** Left-out memories listed by name; the rest are counted, and searchable on the memories page. */
const LEFT_OUT_SHOWN = 200;

export async function renderNextSessionPage(wanted: string, runtime: Runtime, logger: Logger, cached: Cached): Promise<Html> {
  const store = await runtime.store();
  const groups = await store.countByNamespaceAndType();
  const namespaces = [...new Set([GLOBAL_NAMESPACE, ...groups.map((g) => g.namespace)])].sort();
  const label = projectLabels(namespaces);
  const namespace = namespaces.includes(wanted) ? wanted : (namespaces.find((ns) => ns !== GLOBAL_NAMESPACE) ?? GLOBAL_NAMESPACE);
  const { context } = runtime.config;
  const target = namespace === GLOBAL_NAMESPACE
    ? { namespace, projectName: null, withGlobal: false }
    : { namespace, projectName: projectNameOf(namespace), withGlobal: context.includeGlobal };
  const now = runtime.clock.now();
  // Session summaries say their age: a render is kept for the minute it was made in, at most.
  // The rows read for it are kept while the table is the same: a render of the next minute reads them
  // again only for the recent changes (whose window moves with the clock).
  const rows = { list: (options: ListOptions) => (options.supersededSince === undefined ? cached(`next-session-rows:${JSON.stringify(options)}`, () => store.list(options)) : store.list(options)) };
  const fresh = await cached(`next-session:${namespace}:${Math.floor(now.getTime() / 60_000)}`, () => explainContextTarget(target, rows, { maxChars: context.maxChars, now, changesDays: context.changesDays, groups }));
  const text = readContextText(runtime.loaded.paths, namespace, logger) ?? '';
  const handed = text.trim() === '' ? '' : wrapRecallContext(text);
  const stale = fresh.text !== text;
  const leftOut = fresh.leftOut.slice(0, LEFT_OUT_SHOWN);
  return html`<form method="get" action="/next-session" class="filters"><label for="ns" class="vh">project</label><select id="ns" name="namespace">${namespaces.map((ns) => html`<option value="${ns}"${ns === namespace ? ' selected' : ''}>${label(ns)}</option>`)}</select> <button type="submit">Show</button></form>
<p id="budget">${text.length} of ${context.maxChars} characters of notes (${handed.length} of ${ADDITIONAL_CONTEXT_CAP} with the wrapper); ${fresh.included} memories shown, ${fresh.omitted} left out.</p>
${stale ? html`<p id="stale" class="warn">The store has changed since this context was written; the next capture or change here writes it again. The lists below are as it will be.</p>` : ''}
<pre id="context">${handed === '' ? '(nothing: a session here starts without recall context)' : visible(handed)}</pre>
${fresh.lines.length === 0 && fresh.leftOut.length === 0 ? html`<p id="no-context">No memory reaches ${label.html(namespace)} yet. Memories come from your agent's sessions once they are captured (run <code>recall install</code> once; <code>recall doctor</code> checks it), or add one yourself on the <a href="/#add">Memories</a> page.</p>` : ''}
<h2>Shown, line by line (${fresh.lines.length})</h2>
${fresh.lines.length === 0 ? html`<p class="muted">None.</p>` : html`<ol id="shown">${fresh.lines.map(({ line, memory }) => html`<li data-id="${memory.id}"><a href="/memory/${memory.id}">${visible(line)}</a></li>`)}</ol>`}
<h2>Left out (${fresh.leftOut.length})</h2>
<p class="muted">Over the budget of ${context.maxChars} characters, older session summaries, or the same text twice. Sessions can still find them with <code>recall search</code> or the MCP tools.</p>
${leftOut.length === 0 ? html`<p class="muted">None.</p>` : html`<ol id="left-out">${leftOut.map((m) => html`<li data-id="${m.id}"><a href="/memory/${m.id}">${visible(m.content)}</a> <span class="muted">${m.type}${m.namespace === namespace ? '' : `, ${label(m.namespace)}`}</span></li>`)}</ol>`}
${fresh.leftOut.length > leftOut.length ? html`<p>and ${fresh.leftOut.length - leftOut.length} more: <a href="/?${new URLSearchParams({ namespace }).toString()}">all memories of ${label.html(namespace)}</a>.</p>` : ''}`;
}
