/** After a command changes memories, the SessionStart context files of the touched namespaces follow. */
import { describeError } from '../../core/errors.js';
import type { Logger } from '../../core/log.js';
import { refreshContext } from '../../context/refresh-context.js';
import type { Runtime } from '../../app/runtime.js';
import { out } from '../output.js';

/** The write already happened: a failed refresh is a warning, not a failed command. */
export async function refreshAfterWrite(namespaces: Iterable<string>, runtime: Runtime, logger: Logger): Promise<void> {
  const unique = [...new Set(namespaces)];
  if (unique.length === 0) return;
  try {
    await refreshContext(unique, { store: await runtime.store(), paths: runtime.loaded.paths, renderElsewhere: runtime.renderContextElsewhere, config: runtime.config, clock: runtime.clock });
  } catch (err) {
    logger.log('warn', `could not refresh the SessionStart context: ${describeError(err)}`, { namespaces: unique });
    out.warn(`warning: the session context was not refreshed: ${describeError(err)}`);
  }
}
