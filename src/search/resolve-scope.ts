/**
 * Turns the scope options shared by `search`, `list` and friends (`--namespace`, `--project`, `--here`,
 * `--type`, `--since`) into store filters, with one clear error for anything that cannot match.
 */
import { existsSync, statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { RecallError } from '../core/errors.js';
import { MEMORY_TYPES, isMemoryType } from '../core/memory.js';
import type { MemoryFilters, MemoryStore } from '../core/ports.js';
import { GLOBAL_NAMESPACE, resolveProject } from '../project/resolve-project.js';
import { closeMatches } from './close-matches.js';
import { parseSince } from './parse-since.js';

export interface ScopeInput {
  namespace?: string;
  /** A project folder (anything with a path separator, `.` or `..`) or a project name. */
  project?: string;
  here?: boolean;
  type?: string;
  since?: string;
}

export interface ScopeDeps {
  store: Pick<MemoryStore, 'count' | 'countByNamespaceAndType'>;
  cwd: string;
  now: Date;
  homeDir?: string;
}

const PROJECT_NAMESPACE = /^project:(.*)-[0-9a-f]{8}$/;

export async function resolveScope(input: ScopeInput, deps: ScopeDeps): Promise<MemoryFilters> {
  const chosen = [input.namespace !== undefined, input.project !== undefined, input.here === true].filter(Boolean).length;
  if (chosen > 1) throw new RecallError('INPUT_INVALID', 'use only one of --namespace, --project and --here');
  const filters: MemoryFilters = {};
  if (input.type !== undefined) {
    if (!isMemoryType(input.type)) {
      throw new RecallError('INPUT_INVALID', `unknown type "${input.type}"; use one of ${MEMORY_TYPES.join(', ')}`);
    }
    filters.type = input.type;
  }
  if (input.since !== undefined) filters.since = parseSince(input.since, deps.now);
  if (input.here) filters.namespace = resolveProject(deps.cwd, { homeDir: deps.homeDir }).namespace;
  if (input.namespace !== undefined) filters.namespace = await knownNamespace(input.namespace, deps);
  if (input.project !== undefined) Object.assign(filters, await projectFilter(input.project, deps));
  return filters;
}

/** Whether `--project` names a folder rather than a project name. */
export function looksLikePath(value: string): boolean {
  return value === '.' || value === '..' || value.includes('/') || value.includes('\\') || isAbsolute(value);
}

async function knownNamespace(namespace: string, deps: ScopeDeps): Promise<string> {
  const value = namespace.trim();
  if (value === '') throw new RecallError('INPUT_INVALID', '--namespace is empty');
  if (value === GLOBAL_NAMESPACE || (await deps.store.count({ namespace: value })) > 0) return value;
  const known = await knownNamespaces(deps);
  throw new RecallError('INPUT_INVALID', `unknown namespace "${value}"${suggestion(value, known)}`);
}

async function projectFilter(project: string, deps: ScopeDeps): Promise<MemoryFilters> {
  const value = project.trim();
  if (value === '') throw new RecallError('INPUT_INVALID', '--project is empty');
  if (looksLikePath(value)) {
    const dir = resolve(deps.cwd, value);
    if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new RecallError('INPUT_INVALID', `--project ${value}: no such folder`);
    const resolved = resolveProject(dir, { homeDir: deps.homeDir });
    if (resolved.root === null) {
      throw new RecallError('INPUT_INVALID', `--project ${value} is not inside a project (no .git, package.json or similar above it)`);
    }
    return { namespace: resolved.namespace };
  }
  const filters = { projectName: value };
  if ((await deps.store.count(filters)) > 0) return filters;
  // Unknown: only now list every namespace, to suggest names.
  const known = await knownNamespaces(deps);
  const names = known.map((ns) => PROJECT_NAMESPACE.exec(ns)?.[1]).filter((n): n is string => n !== undefined);
  throw new RecallError('INPUT_INVALID', `unknown project "${value}"${suggestion(value, names)}`);
}

async function knownNamespaces(deps: ScopeDeps): Promise<string[]> {
  return [...new Set((await deps.store.countByNamespaceAndType()).map((g) => g.namespace))];
}

function suggestion(value: string, known: readonly string[]): string {
  if (known.length === 0) return ' (no memories are stored yet)';
  // Compare against the readable part too: `api` is close to `project:api-1a2b3c4d`.
  const byLabel = new Map(known.map((k) => [PROJECT_NAMESPACE.exec(k)?.[1] ?? k, k]));
  const close = new Set([
    ...closeMatches(value, known),
    ...closeMatches(value, [...byLabel.keys()]).map((label) => byLabel.get(label) ?? label),
  ]);
  if (close.size > 0) return `; did you mean ${[...close].slice(0, 3).join(', ')}?`;
  if (known.length <= 6) return `; known: ${known.join(', ')}`;
  return '; run `recall stats` to see them';
}
