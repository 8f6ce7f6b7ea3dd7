/** Export-format lines for tests that seed a store through `recall import`. */
export interface SeedMemory {
  id: string;
  content: string;
  type?: string;
  namespace: string;
  createdAt: string;
  projectRoot?: string | null;
  sessionId?: string | null;
  seenCount?: number;
  embedder?: string;
}

export function seedLine(m: SeedMemory): string {
  return JSON.stringify({
    id: m.id,
    content: m.content,
    type: m.type ?? 'preference',
    importance: 0.7,
    namespace: m.namespace,
    project_root: m.projectRoot ?? null,
    session_id: m.sessionId ?? null,
    source: 'test',
    embedder: m.embedder ?? 'hash:384',
    created_at: m.createdAt,
    last_seen_at: m.createdAt,
    seen_count: m.seenCount ?? 1,
  });
}

export function seedFile(memories: readonly SeedMemory[]): string {
  return `${memories.map(seedLine).join('\n')}\n`;
}

/** An ISO timestamp `ms` before now. */
export function ago(ms: number): string {
  return new Date(Date.now() - ms).toISOString();
}

export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;
