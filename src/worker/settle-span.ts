/**
 * Fixes the span of a job whose end was left open (`uncovered`): GitHub Copilot CLI writes a session's last
 * events (the assistant's reply, `session.shutdown`) after its SessionEnd hook ran, so the hook cannot know
 * where the session ends. The worker, when it runs the job, waits until the file has stopped growing (bounded),
 * then takes the bytes no capture covered (the session ledger) up to where the file stands. The caller writes
 * the span into the job before it records it in the ledger, so a retry reads the same bytes and a later capture
 * of the same session starts after them: nothing twice, nothing left out.
 */
import { open, stat } from 'node:fs/promises';
import { RecallError } from '../core/errors.js';
import type { CaptureJob } from '../queue/job.js';
import { capturedBytes } from '../queue/session-ledger.js';
import { transcriptReadError } from '../transcript/read-transcript.js';

export interface SettleTiming {
  /** The file counts as finished once it has not changed for this long. */
  quietMs: number;
  /** Never waits longer than this; a file still growing then is taken up to its last whole line. */
  maxWaitMs: number;
  /** How often the file is looked at while waiting. */
  pollMs: number;
}

export const SETTLE_TIMING: SettleTiming = { quietMs: 3_000, maxWaitMs: 30_000, pollMs: 250 };

export interface SettleClock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

/** How the end was found: the agent's last event came, the file went quiet, or the wait ran out. */
export type SettleHow = 'closed' | 'quiet' | 'bounded';

export interface Settled {
  fromByte: number;
  /** Where the capture ends; null when no byte past `fromByte` is there to capture. */
  toByte: number | null;
  how: SettleHow;
  waitedMs: number;
}

/** The last event an agent writes to a session's file, when it has one; seeing it past the covered bytes ends the wait. */
const CLOSING_EVENTS: Partial<Record<CaptureJob['agent'], string>> = { copilot: 'session.shutdown' };

/** A closing event line is small (Copilot's is a few KiB); a longer last line is not one. */
const TAIL_BYTES = 64 * 1024;

/**
 * The span the job should capture: `toByte` null when no byte is new. Throws TRANSCRIPT_MISSING (retried later)
 * while the file is not there.
 */
export async function settleSpan(home: string, job: CaptureJob, timing: SettleTiming, clock: SettleClock): Promise<Settled> {
  const path = job.transcriptPath;
  const started = clock.now();
  const fromByte = capturedBytes(home, job.sessionId, path);
  const closing = CLOSING_EVENTS[job.agent];
  let seen = await fileState(path);
  let changedAt = started;
  let how: SettleHow;
  for (;;) {
    if (closing !== undefined && seen.size > fromByte && (await lastLineType(path, fromByte, seen.size)) === closing) {
      how = 'closed';
      break;
    }
    if (clock.now() - changedAt >= timing.quietMs) {
      how = 'quiet';
      break;
    }
    if (clock.now() - started >= timing.maxWaitMs) {
      how = 'bounded';
      break;
    }
    await clock.sleep(timing.pollMs);
    const next = await fileState(path);
    if (next.size !== seen.size || next.mtimeMs !== seen.mtimeMs) {
      seen = next;
      changedAt = clock.now();
    }
  }
  const end = how === 'bounded' ? await lastLineEnd(path, fromByte, seen.size) : seen.size;
  const waitedMs = clock.now() - started;
  return { fromByte, toByte: end > fromByte ? end : null, how, waitedMs };
}

async function fileState(path: string): Promise<{ size: number; mtimeMs: number }> {
  try {
    const info = await stat(path);
    if (!info.isFile()) throw new RecallError('TRANSCRIPT_UNREADABLE', `transcript is not a regular file: ${path}`);
    return { size: info.size, mtimeMs: info.mtimeMs };
  } catch (err) {
    throw transcriptReadError(err, path);
  }
}

/** The bytes of `path` in [from, to). */
async function readBytes(path: string, from: number, to: number): Promise<Buffer> {
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(Math.max(0, to - from));
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, from);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** The `type` of the file's last line when it is a whole JSON object line after `from` (and not too long); else null. */
async function lastLineType(path: string, from: number, size: number): Promise<string | null> {
  const start = Math.max(from, size - TAIL_BYTES);
  const tail = (await readBytes(path, start, size)).toString('utf8');
  if (!tail.endsWith('\n')) return null;
  const body = tail.slice(0, -1);
  const cut = body.lastIndexOf('\n');
  if (cut < 0 && start > from) return null;
  try {
    const record: unknown = JSON.parse(body.slice(cut + 1));
    const type = typeof record === 'object' && record !== null ? (record as Record<string, unknown>)['type'] : undefined;
    return typeof type === 'string' ? type : null;
  } catch {
    return null;
  }
}

/** Just past the last newline in [from, size), or `from` when there is none: a line still being written waits for the next capture. */
async function lastLineEnd(path: string, from: number, size: number): Promise<number> {
  for (let end = size; end > from; ) {
    const start = Math.max(from, end - TAIL_BYTES);
    const chunk = await readBytes(path, start, end);
    const at = chunk.lastIndexOf(0x0a);
    if (at >= 0) return start + at + 1;
    end = start;
  }
  return from;
}
