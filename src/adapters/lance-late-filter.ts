/**
 * A filter that nearly every row passes (current versions only, and maybe not quarantined: a plain
 * `recall search`), checked on a search's answers instead of before the search. LanceDB applies a
 * filter before a search by listing every row that passes, through the BTREE index on
 * `superseded_by`, and that list costs time in proportion to the table: at 1M rows a vector search
 * took 19.5 ms with it against 6.3-7.0 ms without, a text search 15 against 11; at 100k rows about
 * the same either way. So on big tables the search runs unfiltered for a few more answers than wanted
 * and drops those that fail; when too many fail, it runs again filtered the usual way. A text search
 * and an exact vector search answer as the filtered search does: the best `limit` rows that pass, in
 * the same order. Through a vector index, which proposes candidates by compressed vectors, rows that
 * fail can take some of the candidates' places, so a near miss of the filtered search may be missed.
 */
import type { MemoryFilters } from '../core/ports.js';
import type { Row } from './lance-rows.js';

/** Below this many rows the filter goes before the search (it costs little there). */
export const LATE_FILTER_MIN_ROWS = 200_000;

export interface LateFilter {
  /** The columns `keep` reads. */
  columns: readonly string[];
  keep(row: Row): boolean;
}

/**
 * The late filter for these filters, or null when they hold anything else (a namespace, a type, a
 * date...: those can pass few rows, and go before the search).
 */
export function lateFilterFor(filters: MemoryFilters): LateFilter | null {
  const others = Object.entries(filters).filter(([key, value]) => value !== undefined && key !== 'limit' && key !== 'allVersions' && key !== 'quarantine');
  if (others.length > 0 || filters.allVersions === true || (filters.quarantine !== undefined && filters.quarantine !== 'exclude')) return null;
  if (filters.quarantine === 'exclude') {
    return { columns: ['superseded_by', 'status'], keep: (row) => row.superseded_by === null && row.status === null };
  }
  return { columns: ['superseded_by'], keep: (row) => row.superseded_by === null };
}

/** Nearest first: LanceDB's own distance, on which a search picks its rows. */
export function byDistance(a: Row, b: Row): number {
  return Number(a._distance) - Number(b._distance);
}

/** Best BM25 score first. */
export function byScore(a: Row, b: Row): number {
  return Number(b._score) - Number(a._score);
}

/** How many unfiltered answers to ask for, for `limit` that pass. */
export function lateFilterFetch(limit: number): number {
  return limit + Math.max(10, Math.ceil(limit / 4));
}

/**
 * The best `limit` rows of `rows` (the answers of an unfiltered search for `fetched` rows) that pass
 * `late`, best first by `better`; null when fewer pass and the search may have had more (then the
 * caller runs it filtered).
 */
export function keepPassing(rows: readonly Row[], late: LateFilter, limit: number, fetched: number, better: (a: Row, b: Row) => number): Row[] | null {
  const kept = rows.filter((row) => late.keep(row)).sort(better);
  if (kept.length >= limit || rows.length < fetched) return kept.slice(0, limit);
  return null;
}
