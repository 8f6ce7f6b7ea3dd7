/**
 * Projects as people know them: the folder name (`project:shop-api-b59f609d` is "shop-api"), with the
 * hash only where two projects share a folder name ("shop-api (b59f609d)"). Global stays "global".
 * A folder name is anyone's text: its hidden characters are spelled out (`shop\u{202E}evil`), so a label
 * is plain text that shows what it holds in a table, an option or an attribute alike.
 */
import { spelled } from './visible-text.js';
import { GLOBAL_NAMESPACE } from '../project/resolve-project.js';

const PROJECT = /^project:(.*)-([0-9a-f]{8})$/;

export type ProjectLabel = (namespace: string) => string;

export function projectLabels(namespaces: Iterable<string>): ProjectLabel {
  const names = new Map<string, Set<string>>();
  for (const ns of namespaces) {
    const match = PROJECT.exec(ns);
    if (match) names.set(match[1]!, (names.get(match[1]!) ?? new Set()).add(ns));
  }
  return (namespace) => {
    if (namespace === GLOBAL_NAMESPACE) return 'global (all projects)';
    const match = PROJECT.exec(namespace);
    if (!match) return spelled(namespace);
    const name = spelled(match[1]!);
    return (names.get(match[1]!)?.size ?? 1) > 1 ? `${name} (${match[2]!})` : name;
  };
}
