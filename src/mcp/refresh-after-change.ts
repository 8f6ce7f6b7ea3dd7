/** After a tool changes memories, the SessionStart context files of the touched namespaces follow. */
import { describeError } from '../core/errors.js';
import { refreshContext } from '../context/refresh-context.js';
import type { McpContext } from './mcp-context.js';

/** The change already happened: a failed refresh is logged, never a failed call (and never printed). */
export async function refreshAfterChange(namespaces: Iterable<string>, ctx: McpContext): Promise<void> {
  const unique = [...new Set(namespaces)];
  if (unique.length === 0) return;
  const { runtime } = ctx;
  try {
    await refreshContext(unique, { store: await runtime.store(), paths: runtime.loaded.paths, renderElsewhere: runtime.renderContextElsewhere, config: runtime.config, clock: runtime.clock });
  } catch (err) {
    ctx.logger.log('warn', `could not refresh the SessionStart context: ${describeError(err)}`, { namespaces: unique });
  }
}
