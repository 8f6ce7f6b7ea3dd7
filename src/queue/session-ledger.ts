/**
 * For agents whose sessions can end without a SessionEnd hook (Codex: a killed process, a closed terminal),
 * two small records per session under RECALL_HOME/sessions/:
 * - `open-<id>.json`, written by the Stop hook after every turn: the session is open, its rollout is there;
 *   the SessionEnd hook takes it away. The next SessionStart queues the ones that have been idle long enough.
 * - `captured-<id>.json`: how many bytes of the session's file a queued capture already covers, so the same
 *   content is never captured twice: a later capture of the same session reads only what came after. A job
 *   with a fixed span records its end when it is queued; a job whose end is not fixed yet (`uncovered`, for
 *   agents that write the session after their SessionEnd hook) records it when the worker fixes it.
 * Node built-ins only (the hooks write these); every failure is the caller's to log, never fatal.
 */
import { readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../core/atomic-write.js';
import { firstBadField, parseJsonObject } from '../core/read-json-object.js';
import type { Agent } from './job.js';

/** A session no SessionEnd has closed, as the Stop hook last saw it. */
export interface OpenSession {
  sessionId: string;
  transcriptPath: string;
  cwd: string | null;
  agent: Agent;
  /** Epoch ms of the last Stop. */
  stoppedAt: number;
}

/** A session counts as ended once neither a Stop nor a write to its file has come for this long. */
export const IDLE_SESSION_MS = 15 * 60 * 1000;

export function sessionsDir(home: string): string {
  return join(home, 'sessions');
}

/** Session ids become file names: only ids of plain characters are kept (Codex's are UUIDs). */
export function safeSessionId(sessionId: string | null): string | null {
  return sessionId !== null && /^[A-Za-z0-9_-]{1,128}$/.test(sessionId) ? sessionId : null;
}

export function markSessionOpen(home: string, session: OpenSession): void {
  const id = safeSessionId(session.sessionId);
  if (id === null) return;
  writeFileAtomic(join(sessionsDir(home), `open-${id}.json`), JSON.stringify({ version: 1, ...session }));
}

export function markSessionClosed(home: string, sessionId: string | null): void {
  const id = safeSessionId(sessionId);
  if (id !== null) rmSync(join(sessionsDir(home), `open-${id}.json`), { force: true });
}

/** The open sessions whose last Stop, and last write to their file, are at least `idleMs` old (the current one left out). */
export function idleSessions(home: string, now: number, options: { exceptSessionId: string | null; idleMs?: number }): OpenSession[] {
  const idleMs = options.idleMs ?? IDLE_SESSION_MS;
  let names: string[];
  try {
    names = readdirSync(sessionsDir(home)).filter((name) => name.startsWith('open-') && name.endsWith('.json'));
  } catch {
    return [];
  }
  const idle: OpenSession[] = [];
  for (const name of names.slice(0, 50)) {
    const session = readOpenSession(join(sessionsDir(home), name));
    if (session === null || session.sessionId === options.exceptSessionId) continue;
    const lastWrite = fileMtime(session.transcriptPath) ?? session.stoppedAt;
    if (now - Math.max(session.stoppedAt, lastWrite) >= idleMs) idle.push(session);
  }
  return idle;
}

function readOpenSession(file: string): OpenSession | null {
  try {
    const parsed = parseJsonObject(readFileSync(file, 'utf8'));
    if (!parsed.ok || firstBadField(parsed.record, { version: 1, sessionId: 'string', transcriptPath: 'string', stoppedAt: 'number' }) !== null) return null;
    const { sessionId, transcriptPath, cwd, agent, stoppedAt } = parsed.record as unknown as OpenSession;
    return { sessionId, transcriptPath, cwd: typeof cwd === 'string' ? cwd : null, agent: typeof agent === 'string' ? agent : 'unknown', stoppedAt };
  } catch {
    return null;
  }
}

function fileMtime(path: string): number | null {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return null;
  }
}

/** The span of a session's file a new capture should read: from where the last one ended to the file's size now; null when nothing is new. */
export function uncapturedSpan(home: string, sessionId: string | null, transcriptPath: string): { fromByte: number; toByte: number | null } | null {
  let size: number;
  try {
    size = statSync(transcriptPath).size;
  } catch {
    // No file (yet): the worker retries a missing transcript; capture it whole then.
    return { fromByte: 0, toByte: null };
  }
  const captured = capturedBytes(home, sessionId, transcriptPath);
  return captured >= size ? null : { fromByte: captured, toByte: size };
}

/** Records that the session's file is covered up to `bytes`. */
export function markCaptured(home: string, sessionId: string | null, transcriptPath: string, bytes: number): void {
  const id = safeSessionId(sessionId);
  if (id === null || bytes <= 0) return;
  writeFileAtomic(join(sessionsDir(home), `captured-${id}.json`), JSON.stringify({ version: 1, sessionId, transcriptPath, bytes }));
}

/** How many bytes of the session's file captures already cover (0 when none, or when the ledger names another file). */
export function capturedBytes(home: string, sessionId: string | null, transcriptPath: string): number {
  const id = safeSessionId(sessionId);
  if (id === null) return 0;
  try {
    const parsed = parseJsonObject(readFileSync(join(sessionsDir(home), `captured-${id}.json`), 'utf8'));
    if (!parsed.ok || parsed.record.transcriptPath !== transcriptPath || typeof parsed.record.bytes !== 'number') return 0;
    return parsed.record.bytes;
  } catch {
    return 0;
  }
}
