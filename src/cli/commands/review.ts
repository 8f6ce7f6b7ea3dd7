/**
 * `recall review`: the quarantined memories (instruction-like text, or a global rule an agent wrote through
 * MCP), which no session sees until the user approves them here, or forgets them.
 */
import type { Command } from 'commander';
import { RecallError } from '../../core/errors.js';
import type { Logger } from '../../core/log.js';
import { decideQuarantined } from '../../store/review-quarantined.js';
import { quarantineReasons } from '../../store/quarantine-reasons.js';
import type { Runtime } from '../../app/runtime.js';
import { withRuntime } from '../context.js';
import { formatAge, namespaceLabel } from '../../core/format.js';
import { out, tabSeparated } from '../output.js';
import { currentTerminal } from '../terminal.js';
import { terminalSafe } from '../terminal-safe.js';
import { memoryJson } from './list.js';
import { refreshAfterWrite } from './refresh-after-write.js';

/** More than any review screen shows; the count says when there are more. */
const LIST_LIMIT = 500;
const MAX_IDS = 500;

export function registerReview(program: Command): void {
  const review = program
    .command('review')
    .description('list the quarantined memories that no session sees until you approve them')
    .option('--json', 'print a JSON array')
    .action(async (opts: { json?: boolean }) => {
      await withRuntime(async (runtime) => listQuarantined(runtime, opts.json === true));
    });
  review
    .command('approve <ids...>')
    .description('release quarantined memories: sessions and the MCP server see them from now on; a proposed change replaces what it wants to replace')
    .option('--json', 'print what was approved as JSON')
    .action(async (ids: string[], _opts: unknown, command: Command) => {
      const wanted = idsFrom(ids);
      await withRuntime(async (runtime, logger) => decide('approve', wanted, wantsJson(command), runtime, logger));
    });
  review
    .command('forget <ids...>')
    .description('delete quarantined memories')
    .option('--json', 'print what was forgotten as JSON')
    .action(async (ids: string[], _opts: unknown, command: Command) => {
      const wanted = idsFrom(ids);
      await withRuntime(async (runtime, logger) => decide('forget', wanted, wantsJson(command), runtime, logger));
    });
}

/** `--json` before or after the subcommand: `recall review --json approve X` and `recall review approve X --json`. */
function wantsJson(command: Command): boolean {
  return (command.optsWithGlobals() as { json?: boolean }).json === true;
}

function idsFrom(ids: string[]): string[] {
  const wanted = [...new Set(ids.map((id) => id.trim()).filter((id) => id !== ''))];
  if (wanted.length === 0) throw new RecallError('INPUT_INVALID', 'give the id(s) `recall review` lists');
  if (wanted.length > MAX_IDS) throw new RecallError('INPUT_INVALID', `at most ${MAX_IDS} ids at once, got ${wanted.length}`);
  return wanted;
}

async function listQuarantined(runtime: Runtime, json: boolean): Promise<void> {
  const store = await runtime.store();
  const records = await store.list({ quarantine: 'only', limit: LIST_LIMIT });
  if (json) {
    out.json(records.map((r) => memoryJson(r, { reasons: quarantineReasons(r) })));
    return;
  }
  if (records.length === 0) {
    out.line((await store.count()) === 0 ? 'nothing to review: no memories are stored yet (the store is empty)' : 'nothing to review: no memory is quarantined');
    return;
  }
  if (!currentTerminal().isTTY) {
    // Piped: one line per held memory, so grep finds its id, its reasons and its text together.
    const rows = records.map((r) => [r.id, r.type, namespaceLabel(r.namespace), r.provenance ?? r.source, formatAge(r.createdAt), quarantineReasons(r).join('; '), (r.wantsToReplace ?? []).join(' '), r.content].map(terminalSafe));
    out.line(tabSeparated(['id', 'type', 'project', 'from', 'age', 'why', 'wants_to_replace', 'content'], rows));
    return;
  }
  out.line(`${records.length}${records.length === LIST_LIMIT ? '+' : ''} quarantined memor${records.length === 1 ? 'y' : 'ies'}; no session sees them until approved:`);
  for (const r of records) {
    out.line();
    out.line(terminalSafe(`${r.id}  [${r.type}] ${namespaceLabel(r.namespace)}, from ${r.provenance ?? r.source}, ${formatAge(r.createdAt)} ago`));
    const reasons = quarantineReasons(r);
    if (reasons.length > 0) out.line(`  why: ${reasons.join('; ')}`);
    if (r.wantsToReplace != null) out.line(terminalSafe(`  wants to replace ${r.wantsToReplace.join(', ')} (approving applies the change; until then that rule stays current)`));
    out.line(`  ${terminalSafe(r.content)}`);
  }
  out.line();
  out.line('recall review approve <id...> releases them; recall review forget <id...> deletes them.');
}

async function decide(action: 'approve' | 'forget', ids: string[], json: boolean, runtime: Runtime, logger: Logger): Promise<void> {
  const records = await decideQuarantined(action, ids, runtime);
  logger.log('info', action === 'approve' ? 'approved quarantined memories' : 'forgot quarantined memories', { ids });
  await refreshAfterWrite(records.map((r) => r.namespace), runtime, logger);
  if (json) out.json(action === 'approve' ? { approved: ids } : { forgotten: ids });
  else out.line(`${action === 'approve' ? 'approved' : 'forgot'} ${ids.length} memor${ids.length === 1 ? 'y' : 'ies'}`);
}
