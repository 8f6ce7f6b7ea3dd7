/**
 * What SessionStart hands a session of each project now: the hook's own reading of the context file,
 * wrapped as the hook wraps it, with its budget; and whether the store has changed since the file was
 * written (a fresh render, as the next refresh would write it, differs).
 */
import { html } from 'hono/html';
import type { Logger } from '../core/log.js';
import { ADDITIONAL_CONTEXT_CAP } from '../context/context-file.js';
import { projectNameOf } from '../context/refresh-context.js';
import { renderContextTargets } from '../context/render-targets.js';
import { readContextText } from '../hook/session-start.js';
import { GLOBAL_NAMESPACE } from '../project/resolve-project.js';
import { wrapRecallContext } from '../transcript/recall-markers.js';
import type { Runtime } from '../app/runtime.js';
import type { Html } from './ui-layout.js';

export async function renderNextSessionPage(wanted: string, runtime: Runtime, logger: Logger): Promise<Html> {
  const store = await runtime.store();
  const namespaces = [...new Set([GLOBAL_NAMESPACE, ...(await store.countByNamespaceAndType()).map((g) => g.namespace)])].sort();
  const namespace = namespaces.includes(wanted) ? wanted : (namespaces.find((ns) => ns !== GLOBAL_NAMESPACE) ?? GLOBAL_NAMESPACE);
  const { context } = runtime.config;
  const target = namespace === GLOBAL_NAMESPACE
    ? { namespace, projectName: null, withGlobal: false }
    : { namespace, projectName: projectNameOf(namespace), withGlobal: context.includeGlobal };
  const [fresh] = await renderContextTargets([target], store, { maxChars: context.maxChars, now: runtime.clock.now(), changesDays: context.changesDays });
  const text = readContextText(runtime.loaded.paths, namespace, logger) ?? '';
  const handed = text.trim() === '' ? '' : wrapRecallContext(text);
  const stale = (fresh?.text ?? '') !== text;
  return html`<form method="get" action="/next-session" class="filters"><select name="namespace" aria-label="project">${namespaces.map((ns) => html`<option value="${ns}"${ns === namespace ? ' selected' : ''}>${ns}</option>`)}</select> <button type="submit">Show</button></form>
<p id="budget">${text.length} of ${context.maxChars} characters of notes (${handed.length} of ${ADDITIONAL_CONTEXT_CAP} with the wrapper); ${fresh?.included ?? 0} memories shown, ${fresh?.omitted ?? 0} left out.</p>
${stale ? html`<p id="stale" class="warn">The store has changed since this context was written; the next capture or change here writes it again.</p>` : ''}
<pre id="context">${handed === '' ? '(nothing: a session here starts without recall context)' : handed}</pre>`;
}
