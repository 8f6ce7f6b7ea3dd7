import { resolve } from 'node:path';
import { Option } from 'commander';
import type { Command } from 'commander';
import { RecallError } from '../../core/errors.js';
import { MEMORY_TYPES } from '../../core/memory.js';
import type { MemoryOrigin, MemoryType } from '../../core/memory.js';
import type { MemoryStore } from '../../core/ports.js';
import { GLOBAL_NAMESPACE, PROJECT_MARKERS, resolveProject } from '../../project/resolve-project.js';
import { looksLikePath, resolveScope } from '../../search/resolve-scope.js';
import { checkMemoryText, storeManualMemory } from '../../store/store-manual-memory.js';
import { withRuntime } from '../context.js';
import { out } from '../output.js';
import { refreshAfterWrite } from './refresh-after-write.js';
import { startUpkeepIfDue } from '../../app/start-upkeep.js';

interface AddFlags {
  type: MemoryType;
  namespace?: string;
  project?: string;
  here?: boolean;
  json?: boolean;
}

export function registerAdd(program: Command): void {
  program
    .command('add <text...>')
    .description('store a memory by hand: redacted, embedded and deduplicated like captured ones (default namespace: global)')
    .addOption(new Option('--type <type>', 'memory type').choices(MEMORY_TYPES).default('preference'))
    .option('--namespace <ns>', 'store it in this existing namespace')
    .option('--project <path>', 'store it in the project of this folder')
    .option('--here', 'store it in the project of the current directory')
    .option('--json', 'print the result as JSON')
    .action(async (words: string[], opts: AddFlags) => {
      const text = checkMemoryText(words.join(' '));
      await withRuntime(async (runtime, logger) => {
        const store = await runtime.store();
        const origin = await originFor(opts, store);
        const outcome = await storeManualMemory({ text, type: opts.type }, origin, runtime);
        logger.log('info', 'manual memory', outcome);
        // Stored, but the text index lagged behind: say both, and exit 0 since the memory is there.
        const warnings = store.takeWriteWarnings?.() ?? [];
        for (const warning of warnings) logger.log('warn', warning);
        await refreshAfterWrite([origin.namespace], runtime, logger);
        if (outcome.status === 'stored') await startUpkeepIfDue(runtime, logger);
        if (opts.json) {
          out.json(warnings.length > 0 ? { ...outcome, warnings } : outcome);
          return;
        }
        for (const warning of warnings) out.warn(`warning: ${warning}`);
        if (outcome.status === 'stored') {
          out.line(`stored ${outcome.id} in ${origin.namespace}`);
          const replaced = outcome.supersedes ?? [];
          if (replaced.length > 0) out.line(`replaces ${replaced.join(', ')} (kept as history: recall show ${outcome.id})`);
          if (outcome.wantsToReplace !== undefined) out.line(`held for review: wants to replace ${outcome.wantsToReplace.join(', ')} (recall review approve ${outcome.id} applies it)`);
        } else out.line(`already known: matches ${outcome.id} (similarity ${(outcome.similarity ?? 1).toFixed(2)}); its seen count went up`);
        if (outcome.redactions > 0) out.line(`(${outcome.redactions} secret${outcome.redactions === 1 ? '' : 's'} redacted)`);
      });
    });
}

/** Where `--namespace`, `--project` or `--here` (or none: global) puts a memory. */
export async function originFor(opts: Pick<AddFlags, 'namespace' | 'project' | 'here'>, store: MemoryStore): Promise<MemoryOrigin> {
  const manual = { sessionId: null, source: 'manual' };
  const chosen = [opts.namespace !== undefined, opts.project !== undefined, opts.here === true].filter(Boolean).length;
  if (chosen > 1) throw new RecallError('INPUT_INVALID', 'use only one of --namespace, --project and --here');
  if (opts.project !== undefined && !looksLikePath(opts.project)) {
    throw new RecallError('INPUT_INVALID', `--project takes a folder here (a name can match several projects); try --project ./${opts.project}`);
  }
  if (opts.here || opts.project !== undefined) {
    const dir = resolve(process.cwd(), opts.project ?? '.');
    // Validates the folder and that it is inside a project.
    if (opts.project !== undefined) await resolveScope({ project: opts.project }, { store, cwd: process.cwd(), now: new Date() });
    const project = resolveProject(dir);
    if (project.root === null) {
      // `--here` asks for this folder's project: filing the memory for every project instead would surprise.
      throw new RecallError('INPUT_INVALID', `--here: ${dir} is not inside a project (no ${PROJECT_MARKERS.join(', ')} in it or above it, below the home folder); nothing was stored. Without --here the memory is kept for every project`);
    }
    return { namespace: project.namespace, projectRoot: project.root, ...manual };
  }
  if (opts.namespace === undefined) return { namespace: GLOBAL_NAMESPACE, projectRoot: null, ...manual };
  const { namespace = GLOBAL_NAMESPACE } = await resolveScope({ namespace: opts.namespace }, { store, cwd: process.cwd(), now: new Date() });
  // A project namespace keeps the root its other memories recorded.
  const sibling = (await store.list({ namespace, limit: 1 }))[0];
  return { namespace, projectRoot: sibling?.projectRoot ?? null, ...manual };
}
