/** The filter options `search`, `list`, `export` and `stats` share, and what they resolve to. */
import type { Command } from 'commander';
import { RecallError } from '../../core/errors.js';
import type { MemoryFilters, MemoryStore } from '../../core/ports.js';
import { resolveScope } from '../../search/resolve-scope.js';
import { currentTerminal } from '../terminal.js';

export interface ScopeFlags {
  namespace?: string;
  project?: string;
  here?: boolean;
  type?: string;
  since?: string;
}

export function addScopeOptions(command: Command): Command {
  return command
    .option('--namespace <ns>', 'only this namespace (e.g. global, project:api-1a2b3c4d)')
    .option('--project <name|path>', 'only this project: a folder (anything with a /, or .) or a project name (every project of that name)')
    .option('--here', 'only the project of the current directory')
    .option('--type <type>', 'only this memory type (golden_rule, preference, decision, pattern, session)')
    .option('--since <when>', 'only memories created since an ISO date (2024-05-01) or a span back from now (30m, 12h, 7d, 2w)');
}

export function scopeFilters(flags: ScopeFlags, store: MemoryStore): Promise<MemoryFilters> {
  return resolveScope(flags, { store, cwd: currentTerminal().cwd, now: new Date() });
}

/**
 * `--include-held`: held (quarantined) memories are left out of every read an agent may run, so an
 * instruction the screen held never reaches one through the command line; the user asks for them.
 */
export interface HeldFlags {
  includeHeld?: boolean;
}

export const INCLUDE_HELD_HELP = 'also memories held for review (quarantined by the write-time screen), marked as held';

export function addHeldOption(command: Command): Command {
  return command.option('--include-held', INCLUDE_HELD_HELP);
}

/** The quarantine filter for these flags: held memories left out unless asked for. */
export function heldFilter(flags: HeldFlags): Pick<MemoryFilters, 'quarantine'> {
  return flags.includeHeld === true ? {} : { quarantine: 'exclude' };
}

/** `--min-score`: a number from 0 to 1. */
export function parseScore(name: string) {
  return (value: string): number => {
    const n = Number(value);
    if (value.trim() === '' || !Number.isFinite(n) || n < 0 || n > 1) {
      throw new RecallError('INPUT_INVALID', `${name} must be a number from 0 to 1, got "${value}"`);
    }
    return n;
  };
}
