/** What SessionStart would hand each project now, rendered the way the context files are, with its budget. */
import { html } from 'hono/html';
import { projectNameOf } from '../context/refresh-context.js';
import { renderContextTargets } from '../context/render-targets.js';
import { GLOBAL_NAMESPACE } from '../project/resolve-project.js';
import type { Runtime } from '../worker/runtime.js';
import type { Html } from './ui-layout.js';

export async function renderNextSessionPage(wanted: string, runtime: Runtime): Promise<Html> {
  const store = await runtime.store();
  const namespaces = [...new Set([GLOBAL_NAMESPACE, ...(await store.countByNamespaceAndType()).map((g) => g.namespace)])].sort();
  const namespace = namespaces.includes(wanted) ? wanted : (namespaces.find((ns) => ns !== GLOBAL_NAMESPACE) ?? GLOBAL_NAMESPACE);
  const includeGlobal = runtime.config.context.includeGlobal;
  const maxChars = runtime.config.context.maxChars;
  const target = namespace === GLOBAL_NAMESPACE
    ? { namespace, projectName: null, withGlobal: false }
    : { namespace, projectName: projectNameOf(namespace), withGlobal: includeGlobal };
  const [rendered] = await renderContextTargets([target], store, { maxChars, now: runtime.clock.now() });
  const text = rendered?.text ?? '';
  return html`<form method="get" action="/next-session" class="filters"><select name="namespace" aria-label="project">${namespaces.map((ns) => html`<option value="${ns}"${ns === namespace ? ' selected' : ''}>${ns}</option>`)}</select> <button type="submit">Show</button></form>
<p id="budget">${text.length} of ${maxChars} characters; ${rendered?.included ?? 0} memories shown, ${rendered?.omitted ?? 0} left out.</p>
<pre id="context">${text === '' ? '(nothing: a session here starts without recall context)' : text}</pre>`;
}
