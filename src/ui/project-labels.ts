/**
 * Projects as people know them: the folder name (`project:shop-api-b59f609d` is "shop-api"), with the
 * hash only where two projects share a folder name ("shop-api (b59f609d)"). Global stays "global".
 * A folder name is anyone's text: its hidden characters are spelled out (`shop\u{202E}evil`) in the
 * label, plain text for an option or an attribute; `label.html` marks them on the page as memory text is.
 */
import type { Html } from './ui-layout.js';
import { spelled, visible } from './visible-text.js';
import { GLOBAL_NAMESPACE } from '../project/resolve-project.js';

const PROJECT = /^project:(.*)-([0-9a-f]{8})$/;

export interface ProjectLabel {
  /** The label as plain text, hidden characters spelled out. */
  (namespace: string): string;
  /** The label for the page, hidden characters marked where they sit. */
  html(namespace: string): Html;
}

export function projectLabels(namespaces: Iterable<string>): ProjectLabel {
  const names = new Map<string, Set<string>>();
  for (const ns of namespaces) {
    const match = PROJECT.exec(ns);
    if (match) names.set(match[1]!, (names.get(match[1]!) ?? new Set()).add(ns));
  }
  const raw = (namespace: string): string => {
    if (namespace === GLOBAL_NAMESPACE) return 'global (all projects)';
    const match = PROJECT.exec(namespace);
    if (!match) return namespace;
    return (names.get(match[1]!)?.size ?? 1) > 1 ? `${match[1]!} (${match[2]!})` : match[1]!;
  };
  return Object.assign((namespace: string) => spelled(raw(namespace)), { html: (namespace: string) => visible(raw(namespace)) });
}
