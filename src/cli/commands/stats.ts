import { readdirSync, statSync } from 'node:fs';
import type { Dirent } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import { MEMORY_TYPES } from '../../core/memory.js';
import type { GroupCount } from '../../core/ports.js';
import { describeStoreLocation } from '../../core/store-location.js';
import { readHistory } from '../../worker/history.js';
import { withRuntime } from '../context.js';
import { formatAge, namespaceLabel } from '../../core/format.js';
import { out, renderTable } from '../output.js';
import { EMPTY_STORE } from './no-results.js';

interface NamespaceStats {
  namespace: string;
  project: string;
  total: number;
  byType: Record<string, number>;
}

export function registerStats(program: Command): void {
  program
    .command('stats')
    .description('memory counts by project and type (and how many are held for review), database size, embedder and the last capture')
    .option('--json', 'print the statistics as JSON')
    .action(async (opts: { json?: boolean }) => {
      await withRuntime(async (runtime) => {
        const { paths } = runtime.loaded;
        const store = await runtime.store();
        const location = runtime.storeLocation();
        const groups = await store.countByNamespaceAndType();
        const namespaces = summarize(groups);
        const info = await store.embedderInfo();
        // The embedder's own id is the normalised spec (`hash` -> `hash:384`); creating it loads nothing.
        const configured = (await runtime.embedder()).id;
        const memories = namespaces.reduce((sum, n) => sum + n.total, 0);
        const stats = {
          memories,
          // Held for review (quarantined, proposed changes): counted in `memories`, never in a session.
          held: memories === 0 ? 0 : await store.count({ quarantine: 'only' }),
          byType: Object.fromEntries(MEMORY_TYPES.map((type) => [type, groups.filter((g) => g.type === type).reduce((s, g) => s + g.count, 0)])),
          namespaces,
          // An object store's size is not known without listing every object: null there.
          db: { path: describeStoreLocation(location), bytes: location.kind === 'local' ? directorySize(location.uri) : null },
          embedder: { store: info?.embedder ?? null, dimension: info?.dimension ?? null, configured },
          lastCapture: readHistory(paths.historyFile).at(-1) ?? null,
        };
        if (opts.json) {
          out.json(stats);
          return;
        }
        const held = stats.held === 0 ? '' : `, ${stats.held} of them held for review (\`recall review\`)`;
        out.line(`memories   ${stats.memories} in ${namespaces.length} namespace${namespaces.length === 1 ? '' : 's'}${held}`);
        out.line(`database   ${stats.db.bytes === null ? stats.db.path : `${formatBytes(stats.db.bytes)} in ${stats.db.path}`}`);
        const mismatch = info !== null && info.embedder !== configured ? `  (configured: ${configured}; run \`recall reindex\`)` : '';
        out.line(`embedder   ${info ? `${info.embedder}, ${info.dimension} dimensions${mismatch}` : `${configured} (no vectors stored yet)`}`);
        const last = stats.lastCapture;
        out.line(`last       ${last ? `${last.status} ${formatAge(last.at)} ago in ${last.namespace} (${last.inserted} new, ${last.reinforced} reinforced)` : 'no capture yet'}`);
        if (namespaces.length === 0) {
          if (stats.memories === 0) out.line(`\n${EMPTY_STORE}`);
          return;
        }
        out.line();
        const types = MEMORY_TYPES.filter((type) => (stats.byType[type] ?? 0) > 0);
        out.line(
          renderTable(
            ['project', ...types, 'total', 'namespace'],
            namespaces.map((n) => [n.project, ...types.map((t) => String(n.byType[t] ?? 0)), String(n.total), n.namespace]),
          ),
        );
      });
    });
}

/** One entry per namespace, the fullest first. */
export function summarize(groups: readonly GroupCount[]): NamespaceStats[] {
  const byNamespace = new Map<string, NamespaceStats>();
  for (const g of groups) {
    const entry = byNamespace.get(g.namespace) ?? { namespace: g.namespace, project: namespaceLabel(g.namespace), total: 0, byType: {} };
    entry.total += g.count;
    entry.byType[g.type] = (entry.byType[g.type] ?? 0) + g.count;
    byNamespace.set(g.namespace, entry);
  }
  return [...byNamespace.values()].sort((a, b) => b.total - a.total || a.namespace.localeCompare(b.namespace));
}

/** Bytes of every file under `dir`; 0 when it does not exist. */
function directorySize(dir: string): number {
  let total = 0;
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return 0;
  }
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) total += directorySize(path);
    else if (entry.isFile()) total += statSync(path, { throwIfNoEntry: false })?.size ?? 0;
  }
  return total;
}

function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 ** 2) return `${(bytes / 1024).toFixed(1)} KB`;
  if (bytes < 1024 ** 3) return `${(bytes / 1024 ** 2).toFixed(1)} MB`;
  return `${(bytes / 1024 ** 3).toFixed(2)} GB`;
}
