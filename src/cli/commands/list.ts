import type { Command } from 'commander';
import type { MemoryRecord } from '../../core/memory.js';
import { resolveProject } from '../../project/resolve-project.js';
import { parsePositiveInt, withRuntime } from '../context.js';
import { formatAge, namespaceLabel } from '../format.js';
import { out, renderTable } from '../output.js';

export interface ScopeOptions {
  namespace?: string;
  here?: boolean;
  type?: string;
}

/** `--here` means the project of the current directory. */
export function scopeNamespace(opts: ScopeOptions): string | undefined {
  if (opts.here) return resolveProject(process.cwd()).namespace;
  return opts.namespace;
}

export function memoryJson(record: MemoryRecord, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: record.id,
    content: record.content,
    type: record.type,
    namespace: record.namespace,
    ...extra,
    importance: record.importance,
    project_root: record.projectRoot,
    session_id: record.sessionId,
    source: record.source,
    created_at: record.createdAt,
    last_seen_at: record.lastSeenAt,
    seen_count: record.seenCount,
  };
}

export function registerList(program: Command): void {
  program
    .command('list')
    .description('list stored memories, newest first')
    .option('--namespace <ns>', 'only this namespace (e.g. global, project:api-1a2b3c4d)')
    .option('--here', 'only the project of the current directory')
    .option('--type <type>', 'only this memory type')
    .option('--limit <n>', 'at most this many', parsePositiveInt('--limit'), 50)
    .option('--json', 'print a JSON array')
    .action(async (opts: ScopeOptions & { limit: number; json?: boolean }) => {
      await withRuntime(async (runtime) => {
        const store = await runtime.store();
        const records = await store.list({ namespace: scopeNamespace(opts), type: opts.type, limit: opts.limit });
        if (opts.json) {
          out.json(records.map((r) => memoryJson(r)));
          return;
        }
        if (records.length === 0) {
          out.line('no memories yet');
          return;
        }
        out.line(
          renderTable(
            ['id', 'type', 'project', 'age', 'content'],
            records.map((r) => [r.id, r.type, namespaceLabel(r.namespace), formatAge(r.createdAt), r.content]),
          ),
        );
      });
    });
}
