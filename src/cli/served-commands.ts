/**
 * The commands `recall serve` runs for its clients (`search`, `list`): the client's command line read
 * with node's parseArgs against the same options the command-line program declares (a test holds the
 * two together), then the same command function the program calls, on the daemon's warm runtime and
 * printing to the client's terminal. A command line it cannot read (a usage error, `--help`) is handed
 * back, and the client runs it itself, so its messages are the program's own.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { Runtime } from '../app/runtime.js';
import { SEARCH_MODES, type SearchMode } from '../search/search-memories.js';
import { DEFAULT_LIST_LIMIT, runList, type ListFlags } from './commands/list.js';
import { parseScore, type ScopeFlags } from './commands/scope-options.js';
import { runSearch, type SearchFlags } from './commands/search.js';
import { parsePositiveInt } from './context.js';
import { exitCodeFor } from './exit-code.js';
import { currentExitCode, withTerminal, type Terminal } from './terminal.js';
import { warnUnknownConfigKeys } from './warn-unknown-keys.js';

type Options = NonNullable<ParseArgsConfig['options']>;

const SCOPE_OPTIONS = {
  namespace: { type: 'string' },
  project: { type: 'string' },
  here: { type: 'boolean' },
  type: { type: 'string' },
  since: { type: 'string' },
} as const satisfies Options;

/** Each served command's options, as the command-line program declares them in search.ts and list.ts. */
export const SERVED_OPTIONS = {
  search: { ...SCOPE_OPTIONS, limit: { type: 'string' }, 'min-score': { type: 'string' }, mode: { type: 'string' }, 'all-versions': { type: 'boolean' }, 'include-held': { type: 'boolean' }, json: { type: 'boolean' }, fields: { type: 'string' }, full: { type: 'boolean' } },
  list: { ...SCOPE_OPTIONS, limit: { type: 'string' }, 'all-versions': { type: 'boolean' }, 'include-held': { type: 'boolean' }, json: { type: 'boolean' } },
} as const satisfies Record<string, Options>;

type ServedCommand = (runtime: Runtime) => Promise<void>;

/** Runs a served command line on `runtime`, printing to `terminal`; null when the client should run it itself. */
export async function runServedCommand(argv: readonly string[], runtime: Runtime, terminal: Terminal): Promise<number | null> {
  const command = readServedCommand(argv);
  if (command === null) return null;
  return withTerminal(terminal, async () => {
    try {
      warnUnknownConfigKeys();
      await command(runtime);
      return currentExitCode();
    } catch (err) {
      return exitCodeFor(err);
    }
  });
}

/** The command a served command line asks for, with its options read; null for anything else. */
export function readServedCommand(argv: readonly string[]): ServedCommand | null {
  const [name, ...args] = argv;
  if (args.some((arg) => arg === '-h' || arg === '--help')) return null;
  try {
    if (name === 'search') {
      const { values, positionals } = parseArgs({ args, options: SERVED_OPTIONS.search, allowPositionals: true, strict: true });
      if (positionals.length === 0) return null;
      const flags: SearchFlags = {
        ...scopeFlags(values),
        mode: searchMode(values.mode),
        ...(values.limit === undefined ? {} : { limit: parsePositiveInt('--limit')(values.limit) }),
        ...(values['min-score'] === undefined ? {} : { minScore: parseScore('--min-score')(values['min-score']) }),
        ...(values['all-versions'] === true ? { allVersions: true } : {}),
        ...(values['include-held'] === true ? { includeHeld: true } : {}),
        ...(values.json === true ? { json: true } : {}),
        ...(values.fields === undefined ? {} : { fields: values.fields }),
        ...(values.full === true ? { full: true } : {}),
      };
      return (runtime) => runSearch(positionals, flags, runtime);
    }
    if (name === 'list') {
      const { values, positionals } = parseArgs({ args, options: SERVED_OPTIONS.list, allowPositionals: true, strict: true });
      if (positionals.length > 0) return null;
      const flags: ListFlags = {
        ...scopeFlags(values),
        limit: values.limit === undefined ? DEFAULT_LIST_LIMIT : parsePositiveInt('--limit')(values.limit),
        ...(values['all-versions'] === true ? { allVersions: true } : {}),
        ...(values['include-held'] === true ? { includeHeld: true } : {}),
        ...(values.json === true ? { json: true } : {}),
      };
      return (runtime) => runList(flags, runtime);
    }
  } catch {
    // A usage error: the program prints it, with its own wording, in the client.
  }
  return null;
}

function scopeFlags(values: { namespace?: string; project?: string; here?: boolean; type?: string; since?: string }): ScopeFlags {
  const flags: ScopeFlags = {};
  if (values.namespace !== undefined) flags.namespace = values.namespace;
  if (values.project !== undefined) flags.project = values.project;
  if (values.here === true) flags.here = true;
  if (values.type !== undefined) flags.type = values.type;
  if (values.since !== undefined) flags.since = values.since;
  return flags;
}

function searchMode(value: string | undefined): SearchMode {
  if (value === undefined) return 'hybrid';
  if ((SEARCH_MODES as readonly string[]).includes(value)) return value as SearchMode;
  throw new Error(`unknown mode ${value}`);
}
