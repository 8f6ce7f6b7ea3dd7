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
import { withVersionMark } from './list.js';
import { describeNoResults } from './no-results.js';
import { parseSearchFields, searchHitJson, SEARCH_FIELDS } from '../search-json.js';
import { addHeldOption, addScopeOptions, heldFilter, parseScore, scopeFilters } from './scope-options.js';
import type { HeldFlags, ScopeFlags } from './scope-options.js';

const MAX_QUERY_CHARS = 2_000;

const SCORE_HELP = `
Scores run from 0 to 1. In hybrid mode (the default) every candidate either side found gets both
scores, the cosine similarity (clamped at 0) and the BM25 text score relative to the best text match,
summed with weights set by the embedder: 0.5 and 0.5 for a semantic model, 0.3 and 0.7 for the
lexical hash embedder. A question naming a day or month ("on 7 May 2025") ranks that day's memories
first. The text side leaves out stop words ("what", "did", "his") and speaker names that open the
memories it finds ("Maria: ..."). --mode vector scores by cosine similarity alone, --mode text by
relative BM25 alone (the best text match scores 1). See docs/search.md.

--json prints a JSON array, one hit per line, with id, score, type, namespace, created_at and content
(status and superseded_by when set), scores to 3 places; --fields picks fields (implies --json),
--full prints all ${SEARCH_FIELDS.length}: ${SEARCH_FIELDS.join(', ')}.`;

export interface SearchFlags extends ScopeFlags, HeldFlags {
  limit?: number;
  minScore?: number;
  mode: SearchMode;
  allVersions?: boolean;
  json?: boolean;
  fields?: string;
  full?: boolean;
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
    .option('--json', 'print a JSON array, one hit per line, with the fields an agent needs')
    .option('--fields <names>', 'with --json: these fields, comma-separated (implies --json)')
    .option('--full', 'with --json: every field (implies --json)')
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
  const fields = parseSearchFields(opts.fields, opts.full === true);
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
  if (opts.json === true || fields !== null) {
    out.jsonRows(hits.map((h) => searchHitJson(h, fields)));
    return;
  }
  if (hits.length === 0) {
    out.line(await describeNoResults(store, filters, opts, query));
    return;
  }
  printHits(hits);
}

function printHits(hits: readonly SearchHit[]): void {
  out.line(
    renderTable(
      ['score', 'id', 'type', 'project', 'age', 'content'],
      hits.map((h) => [h.score.toFixed(2), h.record.id, h.record.type, terminalSafe(namespaceLabel(h.record.namespace)), formatAge(h.record.createdAt), withVersionMark(h.record)]),
    ),
  );
}
