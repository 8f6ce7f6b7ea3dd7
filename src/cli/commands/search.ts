import type { Command } from 'commander';
import { RecallError } from '../../core/errors.js';
import { parsePositiveInt, withRuntime } from '../context.js';
import { formatAge, namespaceLabel } from '../format.js';
import { out, renderTable } from '../output.js';
import { memoryJson, scopeNamespace, type ScopeOptions } from './list.js';

const MAX_QUERY_CHARS = 2_000;

export function registerSearch(program: Command): void {
  program
    .command('search <query...>')
    .description('find memories similar in meaning to the query')
    .option('--namespace <ns>', 'only this namespace')
    .option('--here', 'only the project of the current directory')
    .option('--type <type>', 'only this memory type')
    .option('--limit <n>', 'at most this many results', parsePositiveInt('--limit'), 10)
    .option('--json', 'print a JSON array')
    .action(async (words: string[], opts: ScopeOptions & { limit: number; json?: boolean }) => {
      const query = words.join(' ').trim();
      if (query === '') throw new RecallError('INPUT_INVALID', 'the search query is empty');
      if (query.length > MAX_QUERY_CHARS) throw new RecallError('INPUT_INVALID', `the search query is ${query.length} characters; the limit is ${MAX_QUERY_CHARS}`);
      await withRuntime(async (runtime) => {
        const store = await runtime.store();
        const info = await store.embedderInfo();
        const embedder = await runtime.embedder();
        if (info && info.embedder !== embedder.id) {
          throw new RecallError('EMBEDDER_MISMATCH', `the store was embedded with ${info.embedder} but the configured embedder is ${embedder.id}; set RECALL_EMBEDDER=${info.embedder}`);
        }
        const hits = info ? await store.search((await embedder.embed([query]))[0]!, { namespace: scopeNamespace(opts), type: opts.type, limit: opts.limit }) : [];
        if (opts.json) {
          out.json(hits.map((h) => memoryJson(h.record, { score: round(h.similarity) })));
          return;
        }
        if (hits.length === 0) {
          out.line('no matching memories');
          return;
        }
        out.line(
          renderTable(
            ['score', 'type', 'project', 'age', 'content'],
            hits.map((h) => [h.similarity.toFixed(2), h.record.type, namespaceLabel(h.record.namespace), formatAge(h.record.createdAt), h.record.content]),
          ),
        );
      });
    });
}

function round(n: number): number {
  return Math.round(n * 1000) / 1000;
}
