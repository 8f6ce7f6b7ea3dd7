import type { Command } from 'commander';
import { formatMemoryLine } from '../../store/memory-lines.js';
import { withRuntime } from '../context.js';
import { out } from '../output.js';
import { addHeldOption, addScopeOptions, heldFilter, scopeFilters } from './scope-options.js';
import type { HeldFlags, ScopeFlags } from './scope-options.js';

const BATCH = 500;

export function registerExport(program: Command): void {
  const command = program
    .command('export')
    .description('print memories as JSON Lines (one memory per line, every field incl. the embedder id), for `recall import`');
  addHeldOption(addScopeOptions(command))
    .option('--with-vectors', 'include each vector, so an import with the same embedder need not re-embed')
    .addHelpText('after', '\nExample: recall export --namespace global > global.jsonl')
    .action(async (opts: ScopeFlags & HeldFlags & { withVectors?: boolean }) => {
      await withRuntime(async (runtime) => {
        const store = await runtime.store();
        const filters = await scopeFilters(opts, store);
        // One scan: one table version, so the file is a consistent snapshot; replaced memories go too, as history.
        let written = 0;
        for await (const batch of store.scan({ ...filters, ...heldFilter(opts), allVersions: true, batchSize: BATCH })) {
          for (const memory of batch) out.line(formatMemoryLine(memory, opts.withVectors ? memory.vector : undefined));
          written += batch.length;
        }
        // On stderr, so the file stays empty: an empty export is still a valid import file.
        if (written === 0) out.warn((await store.count()) === 0 ? 'recall export: no memories are stored yet; nothing was exported' : 'recall export: no memories match these filters; nothing was exported');
        if (opts.includeHeld === true) return;
        const held = await store.count({ ...filters, allVersions: true, quarantine: 'only' });
        if (held > 0) out.warn(`${held} memor${held === 1 ? 'y' : 'ies'} held for review left out (recall review; --include-held exports them)`);
      });
    });
}
