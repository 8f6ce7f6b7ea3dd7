/**
 * MemoryFilters evaluated on a record in memory, with the meaning the store's query filter gives them
 * (adapters/lance-rows.ts buildFilter): current versions only unless told otherwise, namespace,
 * namespaces, project name, type, since, quarantine.
 */
import type { MemoryRecord } from './memory.js';
import type { MemoryFilters } from './ports.js';

/** The filter keys matchesFilters knows; a filter with any other key set must go to the store's own query. */
const KNOWN_KEYS: ReadonlySet<string> = new Set([
  'namespace', 'namespaces', 'projectName', 'type', 'since', 'allVersions', 'supersededBy', 'quarantine', 'limit',
]);

/** Whether matchesFilters can answer for these filters (every key set is one it knows). */
export function canMatchInMemory(filters: object): boolean {
  return Object.entries(filters).every(([key, value]) => value === undefined || KNOWN_KEYS.has(key));
}

export function matchesFilters(record: MemoryRecord, filters: MemoryFilters): boolean {
  const supersededBy = record.supersededBy ?? null;
  if (filters.supersededBy !== undefined) {
    if (supersededBy !== filters.supersededBy) return false;
  } else if (filters.allVersions !== true && supersededBy !== null) {
    return false;
  }
  const status = record.status ?? null;
  if (filters.quarantine === 'exclude' && status !== null) return false;
  if (filters.quarantine === 'only' && status !== 'quarantined') return false;
  if (filters.namespace !== undefined && record.namespace !== filters.namespace) return false;
  if (filters.namespaces !== undefined && !filters.namespaces.includes(record.namespace)) return false;
  if (filters.projectName !== undefined && !isProjectNamespace(record.namespace, filters.projectName)) return false;
  if (filters.type !== undefined && record.type !== filters.type) return false;
  // created_at is always `Date#toISOString()` text, which sorts in time order.
  if (filters.since !== undefined && record.createdAt < filters.since.toISOString()) return false;
  return true;
}

/** `project:<name>-` and any 8 characters: the LIKE pattern buildFilter writes for a project name. */
function isProjectNamespace(namespace: string, name: string): boolean {
  const prefix = `project:${name}-`;
  return namespace.startsWith(prefix) && Array.from(namespace.slice(prefix.length)).length === 8;
}
