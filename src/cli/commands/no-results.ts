/**
 * What list and search say when they show nothing: an empty store (and how to fill it), a scope that holds
 * nothing while the store holds memories elsewhere (naming the flags that narrowed it), memories that are all
 * held for review, or a query that matched none of the memories it searched.
 */
import type { MemoryFilters, MemoryStore } from '../../core/ports.js';
import { terminalSafe } from '../terminal-safe.js';
import type { HeldFlags, ScopeFlags } from './scope-options.js';

export const EMPTY_STORE =
  'no memories are stored yet (the store is empty): they come from your agent sessions once `recall install` has set up the hooks, ' +
  'or add one with `recall add "You MUST ..."` (or `recall import <file>`)';

/** The scope flags given, as typed: `--project shop, --type decision`. */
function flagsText(flags: ScopeFlags): string {
  const given: string[] = [];
  if (flags.namespace !== undefined) given.push(`--namespace ${flags.namespace}`);
  if (flags.project !== undefined) given.push(`--project ${flags.project}`);
  if (flags.here === true) given.push('--here');
  if (flags.type !== undefined) given.push(`--type ${flags.type}`);
  if (flags.since !== undefined) given.push(`--since ${flags.since}`);
  return terminalSafe(given.join(', '));
}

function memories(n: number): string {
  return `${n} memor${n === 1 ? 'y' : 'ies'}`;
}

/**
 * Why nothing was shown. `query` is the search's, absent for list; `filters` what the flags resolved to,
 * without the held filter.
 */
export async function describeNoResults(store: MemoryStore, filters: MemoryFilters, flags: ScopeFlags & HeldFlags, query?: string): Promise<string> {
  const total = await store.count();
  if (total === 0) return EMPTY_STORE;
  const scope = flagsText(flags);
  const inScope = await store.count(flags.includeHeld === true ? filters : { ...filters, quarantine: 'exclude' });
  if (inScope > 0) {
    const what = query === undefined ? 'these filters' : `"${terminalSafe(query)}"`;
    return `no memories match ${what} among the ${memories(inScope)} searched${scope === '' ? '' : ` (${scope})`}`;
  }
  const held = flags.includeHeld === true ? 0 : await store.count({ ...filters, quarantine: 'only' });
  const review = '(recall review, or --include-held)';
  if (scope === '') return `nothing to show: ${total === 1 ? 'the one memory stored is' : `all ${total} memories stored are`} held for review ${review}`;
  if (held > 0) return `no memories match these filters (${scope}) but ${memories(held)} held for review ${review}`;
  return `no memories match these filters (${scope}): the store holds ${memories(total)}, none of them there`;
}

/** The words for ids the store does not hold: pointing at `recall list`, or saying nothing is stored at all. */
export async function unknownIds(store: MemoryStore, ids: readonly string[]): Promise<string> {
  const hint = (await store.count()) === 0 ? 'nothing is stored yet' : '`recall list` and `recall search` show the ids';
  return `no memory with id ${terminalSafe(ids.join(', '))} (${hint})`;
}
