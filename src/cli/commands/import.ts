import { readFileSync, statSync } from 'node:fs';
import type { Command } from 'commander';
import { RecallError } from '../../core/errors.js';
import { decisionOptions } from '../../store/decision-options.js';
import { importMemories } from '../../store/import-memories.js';
import { withRuntime } from '../context.js';
import { out } from '../output.js';
import { originFor } from './add.js';
import { refreshAfterWrite } from './refresh-after-write.js';

/** An import file is read whole: 64 KB lines, so this is ~8,000 memories with vectors or far more without. */
const MAX_FILE_BYTES = 512 * 1024 * 1024;

export function registerImport(program: Command): void {
  program
    .command('import <file>')
    .description('import memories from a `recall export` file or hand-written lines ({"content": "..."} is enough): all lines checked first, duplicates skipped, written in one batch')
    .option('--namespace <ns>', 'namespace for lines without one (an existing namespace; default: global)')
    .option('--project <path>', 'lines without a namespace go to the project of this folder')
    .option('--here', 'lines without a namespace go to the project of the current directory')
    .option('--json', 'print the summary as JSON')
    .action(async (file: string, opts: { json?: boolean; namespace?: string; project?: string; here?: boolean }) => {
      const text = readImportFile(file);
      await withRuntime(async (runtime, logger) => {
        const store = await runtime.store();
        const origin = await originFor(opts, store);
        const result = await importMemories(text, {
          lineDefaults: { namespace: origin.namespace, projectRoot: origin.projectRoot },
          store,
          embedder: await runtime.embedder(),
          ...decisionOptions(runtime.config, runtime.llm, logger),
          withStoreLock: runtime.withStoreLock,
        });
        logger.log('info', 'import', { file, ...result });
        await refreshAfterWrite(result.namespaces, runtime, logger);
        if (opts.json) {
          out.json(result);
          return;
        }
        out.line(
          `imported ${result.imported}; skipped ${result.duplicateIds} with a known id and ${result.duplicateContent} duplicates by text or meaning` +
            (result.superseded > 0 ? `; ${result.superseded} marked as replaced by a newer version` : '') +
            (result.proposed > 0 ? `; ${result.proposed} held for review as proposed changes (recall review)` : '') +
            (result.reembedded > 0 ? `; ${result.reembedded} re-embedded` : ''),
        );
      });
    });
}

function readImportFile(file: string): string {
  try {
    const size = statSync(file).size;
    if (size > MAX_FILE_BYTES) throw new RecallError('INPUT_INVALID', `${file} is ${size} bytes; the limit is ${MAX_FILE_BYTES}`);
    return readFileSync(file, 'utf8');
  } catch (err) {
    if (err instanceof RecallError) throw err;
    throw new RecallError('INPUT_INVALID', `cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`, { cause: err });
  }
}
