import { readFileSync, statSync } from 'node:fs';
import type { Command } from 'commander';
import { RecallError } from '../../core/errors.js';
import { decisionOptions } from '../../store/decision-options.js';
import { IMPORT_BLOCK, importMemories, type ImportResult, type ImportStep } from '../../store/import-memories.js';
import { startUpkeepIfDue } from '../../app/start-upkeep.js';
import { withRuntime } from '../context.js';
import { out } from '../output.js';
import { terminalSafe } from '../terminal-safe.js';
import { progressBar } from '../progress-bar.js';
import { originFor } from './add.js';
import { refreshAfterWrite } from './refresh-after-write.js';

/** An import file is read whole: 64 KB lines, so this is ~8,000 memories with vectors or far more without. */
const MAX_FILE_BYTES = 512 * 1024 * 1024;

const STEP_LABELS: Record<ImportStep, string> = { embedding: 'embedding', deciding: 'checking for duplicates', writing: 'writing' };

export function registerImport(program: Command): void {
  program
    .command('import <file>')
    .description(`import memories from a \`recall export\` file or hand-written lines ({"content": "..."} is enough): all lines checked first, duplicates skipped, written in blocks of ${IMPORT_BLOCK} lines`)
    .option('--namespace <ns>', 'namespace for lines without one (an existing namespace; default: global)')
    .option('--project <path>', 'lines without a namespace go to the project of this folder')
    .option('--here', 'lines without a namespace go to the project of the current directory')
    .option('--skip-bad', 'import the good lines and count the bad ones (default: a bad line stops the import before anything is written)')
    .option('--json', 'print the summary as JSON')
    .action(async (file: string, opts: { json?: boolean; namespace?: string; project?: string; here?: boolean; skipBad?: boolean }) => {
      const text = readImportFile(file);
      await withRuntime(async (runtime, logger) => {
        const store = await runtime.store();
        const origin = await originFor(opts, store);
        const progress = await progressBar('importing', opts.json !== true);
        let result: ImportResult;
        try {
          result = await importMemories(text, {
            lineDefaults: { namespace: origin.namespace, projectRoot: origin.projectRoot },
            store,
            embedder: await runtime.embedder(),
            ...decisionOptions(runtime.config, runtime.llm, logger),
            withStoreLock: runtime.withStoreLock,
            skipBadLines: opts.skipBad === true,
            onProgress: progress === null ? undefined : (step, done, total) => progress.update(done, total, STEP_LABELS[step]),
            // A store filled by an import gets its indexes as one filled by captures does, during a big
            // import too, so the later blocks' lookups go through the vector index.
            afterBlock: async () => {
              await startUpkeepIfDue(runtime, logger);
            },
          });
        } finally {
          progress?.stop();
        }
        logger.log('info', 'import', { file, ...result });
        await refreshAfterWrite(result.namespaces, runtime, logger);
        if (opts.json) {
          out.json({ stored: result.imported, duplicates: result.duplicateIds + result.duplicateContent, ...result });
          return;
        }
        out.line(describeImport(result));
        for (const error of result.badLineErrors) out.line(`  skipped ${terminalSafe(error)}`);
      });
    });
}

/** The human summary: what was stored, and everything that was not, by why. */
export function describeImport(r: ImportResult): string {
  const parts = [
    `stored ${r.imported}`,
    `${r.duplicateIds + r.duplicateContent} duplicate${r.duplicateIds + r.duplicateContent === 1 ? '' : 's'} skipped (${r.duplicateIds} by id, ${r.duplicateContent} by text or meaning)`,
    `${r.heldForReview} held for review${r.proposed > 0 ? ` (${r.proposed} of them proposed changes to stored memories: recall review)` : ''}`,
    `${r.superseded} replacing an older version`,
    `${r.badLines} bad line${r.badLines === 1 ? '' : 's'}`,
  ];
  return parts.join('; ') + (r.reembedded > 0 ? ` (${r.reembedded} re-embedded)` : '');
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
