import type { Command } from 'commander';
import { RecallError, isRecallError } from '../../core/errors.js';
import { reindexMemories } from '../../store/reindex-memories.js';
import type { ReindexResult } from '../../store/reindex-memories.js';
import { withLock } from '../../adapters/file-lock.js';
import { parsePositiveInt, withRuntime } from '../context.js';
import { out } from '../output.js';
import { refreshAfterWrite } from './refresh-after-write.js';
import { progressBar } from '../progress-bar.js';

interface ReindexFlags {
  batchSize: number;
  force?: boolean;
  json?: boolean;
}


export function registerReindex(program: Command): void {
  program
    .command('reindex')
    .description('re-embed every memory with the configured embedder; safe to interrupt, run it again to resume')
    .option('--batch-size <n>', 'memories embedded per batch', parsePositiveInt('--batch-size'), 64)
    .option('--force', 're-embed even when the store already uses the configured embedder')
    .option('--json', 'print the result as JSON')
    .action(async (opts: ReindexFlags) => {
      await withRuntime(async (runtime, logger) => {
        const { config, paths } = runtime.loaded;
        const progress = await progressBar('re-embedding', opts.json !== true);
        let result: ReindexResult;
        try {
          // One re-embed at a time; writers of new memories are only held up for the final swap. The wait
          // is long enough to take over the lock of a run that was killed.
          const lock = { waitMs: config.queue.lockStaleMs + 2_000, staleMs: config.queue.lockStaleMs };
          result = await withLock(paths.home, 'reindex', lock, async () =>
            reindexMemories({
              store: await runtime.store(),
              embedder: await runtime.embedder(),
              withStoreLock: runtime.withStoreLock,
              batchSize: opts.batchSize,
              force: opts.force,
              onProgress: progress ? (done, total) => progress.update(done, total) : undefined,
            }),
          );
        } catch (err) {
          if (isRecallError(err, 'LOCK_HELD')) throw new RecallError('LOCK_HELD', 'another `recall reindex` is running', { cause: err });
          throw err;
        } finally {
          progress?.stop();
        }
        logger.log('info', 'reindex', result);
        if (result.status === 'reindexed') {
          const namespaces = (await (await runtime.store()).countByNamespaceAndType()).map((g) => g.namespace);
          await refreshAfterWrite(namespaces, runtime, logger);
        }
        if (opts.json) out.json(result);
        else out.line(describe(result));
      });
    });
}

function describe(result: ReindexResult): string {
  switch (result.status) {
    case 'empty':
      return 'nothing to re-embed: the store is empty';
    case 'current':
      return `the store already uses ${result.embedder} (use --force to re-embed anyway)`;
    case 'reindexed':
      return `re-embedded ${result.rows} memories: ${result.from} -> ${result.to}` + (result.resumed > 0 ? ` (${result.resumed} reused from an interrupted run)` : '');
  }
}
