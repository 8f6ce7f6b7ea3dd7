/**
 * A capture job as it sits in the spool. No node imports: the SessionEnd hook writes these, and
 * loading node:crypto alone would add ~3 ms to every hook start.
 */
import { firstBadField, parseJsonObject } from '../core/read-json-object.js';

export type Agent = 'claude' | 'factory' | 'codex' | 'gemini' | 'copilot' | 'qwen' | 'unknown';

export interface CachedMemory {
  content: string;
  type: string;
  importance: number;
  provenance?: string | null;
}

export interface CaptureJob {
  version: 1;
  id: string;
  sessionId: string | null;
  transcriptPath: string;
  cwd: string | null;
  agent: Agent;
  reason: string | null;
  enqueuedAt: string;
  attempts: number;
  /** ISO time before which the job is not due (retry backoff); null means due now. */
  notBefore: string | null;
  lastError: string | null;
  /** Times a worker stopped in the middle of this job (crashed, was killed, or ran past the job time limit). */
  crashes?: number;
  /**
   * The model's answer for this job, saved before anything is stored, so a worker killed between
   * extraction and the end of the job stores the very same memories again (and dedupe skips them).
   */
  extracted?: CachedMemory[];
  /** The start of a SessionEnd payload the hook could not read (cut, not JSON, no transcript path), kept with `lastError`. */
  payload?: string;
  /**
   * The part of the transcript this job captures, in bytes: from `fromByte` (0 when absent) to `toByte`
   * (the end when absent or null). Set for sessions captured in parts (Codex, see session-ledger.ts), so no
   * content is captured twice.
   */
  fromByte?: number;
  toByte?: number | null;
  /**
   * The span is not fixed yet: the job captures the bytes of the session's file no capture has covered, up to
   * where the file stands once it has stopped growing. Set by a SessionEnd hook whose agent may still write the
   * session after the hook ran (Copilot CLI); the worker fixes `fromByte`/`toByte` when it first runs the job
   * and records them in the session ledger (see worker/settle-span.ts).
   */
  uncovered?: boolean;
}

/**
 * Sortable, unique job id: time first so a directory listing sorts oldest first, then 40 random bits
 * (Math.random is seeded per process; an id needs to be unique, not secret).
 */
export function newJobId(now: Date = new Date()): string {
  const random = Math.floor(Math.random() * 2 ** 40).toString(16).padStart(10, '0');
  return `${now.getTime().toString(36).padStart(9, '0')}-${random}`;
}

export function newCaptureJob(
  fields: Pick<CaptureJob, 'sessionId' | 'transcriptPath' | 'cwd' | 'agent' | 'reason'> & Partial<Pick<CaptureJob, 'fromByte' | 'toByte'>>,
  now: Date = new Date(),
): CaptureJob {
  return {
    version: 1,
    id: newJobId(now),
    ...fields,
    enqueuedAt: now.toISOString(),
    attempts: 0,
    notBefore: null,
    lastError: null,
  };
}

/** Reads back a job file's JSON; returns null for anything that is not a well-formed job. */
export function parseJob(text: string): CaptureJob | null {
  const parsed = parseJsonObject(text);
  if (!parsed.ok) return null;
  if (firstBadField(parsed.record, JOB_FIELDS) !== null) return null;
  return parsed.record as unknown as CaptureJob;
}

/** What a job file must hold to be read back; other fields are the writer's and read as they are. */
const JOB_FIELDS = { version: 1, id: 'string', transcriptPath: 'string', attempts: 'number' } as const;

export function isDue(job: CaptureJob, now: Date): boolean {
  return job.notBefore === null || Date.parse(job.notBefore) <= now.getTime();
}

/** Exponential backoff: base, 2x base, 4x base, ... capped at six hours. */
export function retryDelayMs(attempts: number, baseMs: number): number {
  return Math.min(baseMs * 2 ** Math.max(0, attempts - 1), 6 * 60 * 60 * 1000);
}
