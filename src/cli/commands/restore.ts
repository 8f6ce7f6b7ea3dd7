/** `recall restore <id>`: makes an older version of a memory current again (undoes a change). */
import type { Command } from 'commander';
import { RecallError } from '../../core/errors.js';
import { restoreVersion } from '../../store/restore-version.js';
import { withRuntime } from '../context.js';
import { out } from '../output.js';
import { terminalSafe } from '../terminal-safe.js';
import { refreshAfterWrite } from './refresh-after-write.js';

export function registerRestore(program: Command): void {
  program
    .command('restore <id>')
    .description('make an older version of a memory current again; the versions that replaced it are kept as history (recall show <id> lists them)')
    .option('--json', 'print what was restored as JSON')
    .action(async (rawId: string, opts: { json?: boolean }) => {
      const id = rawId.trim();
      if (id === '') throw new RecallError('INPUT_INVALID', 'give the id of an older version (recall show <id> or recall list --all-versions shows them)');
      await withRuntime(async (runtime, logger) => {
        const store = await runtime.store();
        const result = await runtime.withStoreLock(() => restoreVersion(id, store, runtime.clock.now()));
        logger.log('info', 'restored an older version', { id, replaced: result.replaced });
        await refreshAfterWrite([result.restored.namespace], runtime, logger);
        if (opts.json) {
          out.json({ restored: id, replaced: result.replaced });
          return;
        }
        out.line(terminalSafe(`${id} is current again: ${result.restored.content}`));
        if (result.replaced.length > 0) out.line(`replaced ${result.replaced.join(', ')} (kept as history; recall restore undoes this too)`);
      });
    });
}
