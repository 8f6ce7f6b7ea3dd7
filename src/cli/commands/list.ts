import type { Command } from 'commander';
import type { Runtime } from '../../app/runtime.js';
import type { MemoryRecord } from '../../core/memory.js';
import { parsePositiveInt, withRuntime } from '../context.js';
import { formatAge, namespaceLabel } from '../../core/format.js';
import { out, renderTable } from '../output.js';
import { describeNoResults } from './no-results.js';
import { terminalSafe } from '../terminal-safe.js';
import { addHeldOption, addScopeOptions, heldFilter, scopeFilters } from './scope-options.js';
import type { HeldFlags, ScopeFlags } from './scope-options.js';

/** The JSON shape of one memory in `list`, `search` and `show` output. */
export function memoryJson(record: MemoryRecord, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: record.id,
    content: record.content,
    type: record.type,
    namespace: record.namespace,
    ...extra,
    importance: record.importance,
    embedder: record.embedder,
    project_root: record.projectRoot,
    session_id: record.sessionId,
    source: record.source,
    created_at: record.createdAt,
    last_seen_at: record.lastSeenAt,
    seen_count: record.seenCount,
    superseded_by: record.supersededBy ?? null,
    superseded_at: record.supersededAt ?? null,
    provenance: record.provenance ?? null,
    status: record.status ?? null,
    wants_to_replace: record.wantsToReplace ?? null,
    held: record.status === 'quarantined',
  };
}

/** How many memories `recall list` shows without --limit. */
export const DEFAULT_LIST_LIMIT = 50;

export function registerList(program: Command): void {
  const command = program.command('list').description('list stored memories, newest first');
  addHeldOption(addScopeOptions(command))
    .option('--limit <n>', 'at most this many', parsePositiveInt('--limit'), DEFAULT_LIST_LIMIT)
    .option('--all-versions', 'also memories a newer version replaced (history)')
    .option('--json', 'print a JSON array')
    .action(async (opts: ListFlags) => {
      await withRuntime((runtime) => runList(opts, runtime));
    });
}

export interface ListFlags extends ScopeFlags, HeldFlags {
  limit: number;
  allVersions?: boolean;
  json?: boolean;
}

/** `recall list` itself, run by the command line and by `recall serve` (with its warm runtime) alike. */
export async function runList(opts: ListFlags, runtime: Runtime): Promise<void> {
  const store = await runtime.store();
  const filters = await scopeFilters(opts, store);
  const records = await store.list({ ...filters, ...heldFilter(opts), allVersions: opts.allVersions === true, limit: opts.limit });
  if (opts.json) {
    out.json(records.map((r) => memoryJson(r)));
    return;
  }
  if (records.length === 0) {
    out.line(await describeNoResults(store, filters, opts));
    return;
  }
  out.line(
    renderTable(
      ['id', 'type', 'project', 'age', 'content'],
      records.map((r) => [r.id, r.type, terminalSafe(namespaceLabel(r.namespace)), formatAge(r.createdAt), withVersionMark(r)]),
    ),
  );
}

/**
 * A memory's content for a human table: control characters made harmless (terminalSafe), marked when it is
 * quarantined or replaced (only `--all-versions` shows a replaced one).
 */
export function withVersionMark(record: MemoryRecord): string {
  const wants = record.wantsToReplace == null || record.wantsToReplace.length === 0 ? '' : `; wants to replace ${record.wantsToReplace.map(terminalSafe).join(', ')}`;
  const marks = [record.status === 'quarantined' ? `[held for review${wants}] ` : '', record.supersededBy == null ? '' : `[replaced by ${terminalSafe(record.supersededBy)}] `].join('');
  return `${marks}${terminalSafe(record.content)}`;
}
