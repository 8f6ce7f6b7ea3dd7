import { Option } from 'commander';
import type { Command } from 'commander';
import { RecallError } from '../../core/errors.js';
import { SEARCH_MODES, searchMemories } from '../../search/search-memories.js';
import type { SearchHit, SearchMode } from '../../search/search-memories.js';
import type { Runtime } from '../../app/runtime.js';
import { parsePositiveInt, withRuntime } from '../context.js';
import { formatAge, namespaceLabel } from '../../core/format.js';
import { terminalSafe } from '../terminal-safe.js';
import { out, renderTable } from '../output.js';
import { memoryJson, withVersionMark } from './list.js';
import { addHeldOption, addScopeOptions, heldFilter, parseScore, scopeFilters } from './scope-options.js';
import type { HeldFlags, ScopeFlags } from './scope-options.js';

const MAX_QUERY_CHARS = 2_000;

const SCORE_HELP = `
Scores run from 0 to 1. In hybrid mode (the default) the score is 0.5 x the cosine similarity
(clamped at 0) plus 0.5 x the BM25 text score relative to the query's best text match: 1.0 means
the same meaning and the best text match; a memory found by only one side scores at most 0.5.
--mode vector scores by cosine similarity alone, --mode text by relative BM25 alone (the best text
match scores 1).`;

export interface SearchFlags extends ScopeFlags, HeldFlags {
  limit?: number;
  minScore?: number;
  mode: SearchMode;
  allVersions?: boolean;
  json?: boolean;
}

export function registerSearch(program: Command): void {
  const command = program
    .command('search <query...>')
    .description('find memories by meaning and by exact words (hybrid vector + full-text search)');
  addHeldOption(addScopeOptions(command))
    .option('--limit <n>', 'at most this many results (default: config search.limit)', parsePositiveInt('--limit'))
    .option('--min-score <x>', 'drop results scoring below this, 0..1 (default: config search.minScore)', parseScore('--min-score'))
    .addOption(new Option('--mode <mode>', 'ranking to use').choices(SEARCH_MODES).default('hybrid'))
    .option('--all-versions', 'also memories a newer version replaced (history)')
    .option('--json', 'print a JSON array')
    .addHelpText('after', SCORE_HELP)
    .action(async (words: string[], opts: SearchFlags) => {
      await withRuntime((runtime) => runSearch(words, opts, runtime));
    });
}

/** `recall search` itself, run by the command line and by `recall serve` (with its warm runtime) alike. */
export async function runSearch(words: readonly string[], opts: SearchFlags, runtime: Runtime): Promise<void> {
  const query = words.join(' ').trim();
  if (query === '') throw new RecallError('INPUT_INVALID', 'the search query is empty');
  if (query.length > MAX_QUERY_CHARS) {
    throw new RecallError('INPUT_INVALID', `the search query is ${query.length} characters; the limit is ${MAX_QUERY_CHARS}`);
  }
  const store = await runtime.store();
  const filters = await scopeFilters(opts, store);
  const hits = await searchMemories(
    {
      query,
      mode: opts.mode,
      filters: { ...filters, ...heldFilter(opts), allVersions: opts.allVersions === true },
      limit: opts.limit ?? runtime.config.search.limit,
      minScore: opts.minScore ?? runtime.config.search.minScore,
    },
    { store, embedder: runtime.embedder },
  );
  if (opts.json) {
    out.json(hits.map((h) => memoryJson(h.record, { score: h.score, vector_score: h.vectorScore, text_score: h.textScore })));
    return;
  }
  printHits(hits);
}

function printHits(hits: readonly SearchHit[]): void {
  if (hits.length === 0) {
    out.line('no matching memories');
    return;
  }
  out.line(
    renderTable(
      ['score', 'type', 'project', 'age', 'content'],
      hits.map((h) => [h.score.toFixed(2), h.record.type, terminalSafe(namespaceLabel(h.record.namespace)), formatAge(h.record.createdAt), withVersionMark(h.record)]),
    ),
  );
}
