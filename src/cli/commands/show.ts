import type { Command } from 'commander';
import { RecallError } from '../../core/errors.js';
import { withRuntime } from '../context.js';
import { formatAge, namespaceLabel } from '../../core/format.js';
import { terminalSafe } from '../terminal-safe.js';
import { unknownIds } from './no-results.js';
import { out } from '../output.js';
import { readVersionChain } from '../../store/version-chain.js';
import { memoryJson } from './list.js';
import { INCLUDE_HELD_HELP } from './scope-options.js';

export function registerShow(program: Command): void {
  program
    .command('show <id>')
    .description('show every field of one memory, and its versions: the ones it replaced and the ones that replaced it')
    .option('--include-held', INCLUDE_HELD_HELP)
    .option('--json', 'print a JSON object')
    .action(async (id: string, opts: { json?: boolean; includeHeld?: boolean }) => {
      const wanted = id.trim();
      if (wanted === '') throw new RecallError('INPUT_INVALID', 'the memory id is empty');
      await withRuntime(async (runtime) => {
        const store = await runtime.store();
        const record = await store.get(wanted);
        if (record === null) throw new RecallError('NOT_FOUND', await unknownIds(store, [wanted]));
        const held = (r: typeof record) => r.status === 'quarantined' && opts.includeHeld !== true;
        // A held memory's text reaches no agent: the user reads it with --include-held or `recall review`.
        if (held(record)) throw new RecallError('NOT_FOUND', `memory ${wanted} is held for review; \`recall review\` shows it, or \`recall show --include-held ${wanted}\``);
        const found = await readVersionChain(store, record);
        const chain = { older: found.older.filter((r) => !held(r)), newer: found.newer.filter((r) => !held(r)) };
        if (opts.json) {
          out.json(memoryJson(record, { older_versions: chain.older.map((r) => memoryJson(r)), newer_versions: chain.newer.map((r) => memoryJson(r)) }));
          return;
        }
        const fields: Array<[string, string]> = [
          ['id', record.id],
          ['type', record.type],
          ['importance', String(record.importance)],
          ['project', `${namespaceLabel(record.namespace)} (${record.namespace})`],
          ['root', record.projectRoot ?? '-'],
          ['session', record.sessionId ?? '-'],
          ['source', record.source],
          ['embedder', record.embedder],
          ['created', `${record.createdAt} (${formatAge(record.createdAt)} ago)`],
          ['last seen', `${record.lastSeenAt} (${formatAge(record.lastSeenAt)} ago)`],
          ['seen', `${record.seenCount} time${record.seenCount === 1 ? '' : 's'}`],
          ['provenance', record.provenance ?? '-'],
          ['status', record.supersededBy == null ? 'current' : `replaced by ${record.supersededBy} at ${record.supersededAt ?? '?'}`],
          ...(record.status === 'quarantined' ? [['review', 'quarantined: no session sees it until `recall review approve`'] as [string, string]] : []),
        ];
        // Namespace, root, session and source come from imports too: printed like the content.
        for (const [name, value] of fields) out.line(`${name.padEnd(11)}${terminalSafe(value)}`);
        out.line();
        out.line(terminalSafe(record.content));
        if (chain.older.length + chain.newer.length === 0) return;
        out.line();
        out.line('versions (oldest first):');
        const line = (r: typeof record, mark: string) => out.line(`${mark} ${r.id}  ${r.createdAt}  ${terminalSafe(r.content)}`);
        for (const r of chain.older) line(r, ' ');
        line(record, '*');
        for (const r of chain.newer) line(r, ' ');
      });
    });
}
