/** Small text helpers for human output. */

export function formatAge(iso: string, now: Date = new Date()): string {
  const seconds = Math.max(0, (now.getTime() - Date.parse(iso)) / 1000);
  if (!Number.isFinite(seconds)) return '?';
  if (seconds < 60) return `${Math.floor(seconds)}s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)}m`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)}h`;
  if (seconds < 86_400 * 60) return `${Math.floor(seconds / 86_400)}d`;
  return `${Math.floor(seconds / (86_400 * 30))}mo`;
}

/** `project:api-3f2a9c01` -> `api`; `global` stays. */
export function namespaceLabel(namespace: string): string {
  const match = /^project:(.*)-[0-9a-f]{8}$/.exec(namespace);
  return match ? match[1]! : namespace;
}
