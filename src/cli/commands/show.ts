import type { Command } from 'commander';
import { RecallError } from '../../core/errors.js';
import { withRuntime } from '../context.js';
import { formatAge, namespaceLabel } from '../format.js';
import { out } from '../output.js';
import { memoryJson } from './list.js';

export function registerShow(program: Command): void {
  program
    .command('show <id>')
    .description('show every field of one memory')
    .option('--json', 'print a JSON object')
    .action(async (id: string, opts: { json?: boolean }) => {
      const wanted = id.trim();
      if (wanted === '') throw new RecallError('INPUT_INVALID', 'the memory id is empty');
      await withRuntime(async (runtime) => {
        const record = await (await runtime.store()).get(wanted);
        if (record === null) throw new RecallError('NOT_FOUND', `no memory with id ${wanted}`);
        if (opts.json) {
          out.json(memoryJson(record));
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
        ];
        for (const [name, value] of fields) out.line(`${name.padEnd(11)}${value}`);
        out.line();
        out.line(record.content);
      });
    });
}
