/**
 * SessionEnd: queue the transcript for capture and hand off to a detached worker.
 * Node built-ins only; never reads the transcript; all SessionEnd hooks share a 1.5 s budget.
 * When the state dir cannot take the job file (full disk, quota, read-only, I/O error), the job
 * goes to a fallback spool on another file system, which the worker adopts once there is room.
 */
import { dirname } from 'node:path';
import { unknownKeysInHome } from '../config/unknown-keys-in-home.js';
import { fileLogger, type Logger } from '../core/log.js';
import { stateFolderProblems } from '../core/private-paths.js';
import { hookSpawnAllowed } from '../core/process-switches.js';
import { statePaths, type StatePaths } from '../core/state-paths.js';
import { newCaptureJob, type CaptureJob } from '../queue/job.js';
import { detectAgent } from './hook-agent.js';
import { markCaptured, markSessionClosed, uncapturedSpan } from '../queue/session-ledger.js';
import { Spool } from '../queue/spool.js';
import { jobsWaitForModel } from '../queue/waiting-marker.js';
import type { HookContext } from './hook-context.js';
import { parseHookInput, type HookInput } from './hook-input.js';
import { spawnDetachedWorker } from './spawn-worker.js';

export async function sessionEndHook(ctx: HookContext): Promise<Record<string, unknown>> {
  const paths = statePaths(ctx.home);
  const logger = fileLogger(paths.logFile, 'hook.session-end');
  // Once a session, the line every command prints on stderr about keys recall ignores.
  const unknownKeys = unknownKeysInHome(ctx.home);
  if (unknownKeys !== null) logger.log('warn', unknownKeys);
  const read = readPayload(ctx);
  if (read.job === null) {
    keepUnreadable(paths, ctx, read.problem, logger);
    return {};
  }
  const { job: whole } = read;
  if (read.problem !== null) logger.log('warn', `SessionEnd payload was cut (${read.problem}); queued from the fields it holds`, { sessionId: whole.sessionId });
  // Codex sessions are captured in parts (a later SessionStart may have captured an idle one): only what is new.
  const span = whole.agent === 'codex' ? uncapturedSpan(ctx.home, whole.sessionId, whole.transcriptPath) : undefined;
  if (span === null) {
    markSessionClosed(ctx.home, whole.sessionId);
    logger.log('info', 'nothing new in the session since its last capture', { sessionId: whole.sessionId });
    return {};
  }
  const job: CaptureJob = span === undefined ? whole : { ...whole, fromByte: span.fromByte, toByte: span.toByte };
  const [unsafe] = stateFolderProblems(paths);
  if (unsafe !== undefined) {
    // Never queue into a folder someone else controls; doctor names the problem.
    logger.log('error', `not queued: ${unsafe}`, { sessionId: job.sessionId });
    return {};
  }
  let workerCwd = paths.home;
  try {
    new Spool(paths).enqueue(job);
    if (span) recordSpan(ctx.home, job, span.toByte);
    logger.log('info', 'queued capture', { job: job.id, sessionId: job.sessionId, reason: job.reason });
  } catch (err) {
    // Loaded only here: the common path stays as small as it was.
    const { enqueueFallback } = await import('../queue/fallback-spool.js');
    try {
      const file = enqueueFallback(job, paths.home);
      workerCwd = dirname(file);
      if (span) recordSpan(ctx.home, job, span.toByte);
      logger.log('warn', `state dir cannot take the job (${(err as Error).message}); queued in the fallback spool`, { job: job.id, sessionId: job.sessionId, file });
    } catch (fallbackErr) {
      logger.log('error', `could not queue capture: ${(err as Error).message}; ${(fallbackErr as Error).message}`, { sessionId: job.sessionId });
      return {};
    }
  }
  if (!hookSpawnAllowed(ctx.env)) return {};
  // Jobs that wait for a model no one configured yet: a worker would find the same and leave at once, and
  // in a burst each next hook would start another (17 for 200 sessions ending at once). The note lapses
  // when the model setting changes (waiting-marker.ts). A job in the fallback spool still starts one.
  if (workerCwd === paths.home && jobsWaitForModel(paths.home, paths.configFile, ctx.env)) {
    logger.log('info', 'queued; no worker started: queued jobs wait for an extraction model', { job: job.id });
    return {};
  }
  const started = await spawnDetachedWorker(ctx.env, workerCwd, paths.home);
  if (started === 'failed') logger.log('warn', 'could not start the worker; the job stays queued for the next run', { job: job.id });
  return {};
}

/** The start of an unreadable payload kept with its job: enough to find the session by hand. */
const KEPT_PAYLOAD_CHARS = 64 * 1024;

type ReadPayload = { job: CaptureJob; problem: string | null } | { job: null; problem: string };

/**
 * The job for this payload. A payload cut at the size cap, or by a stdin that never closed, still
 * queues its session when its transcript path can be read from what came; the problem says so.
 */
function readPayload(ctx: HookContext): ReadPayload {
  const cut = ctx.stdin.cut === 'cap' ? 'cut at the size cap' : ctx.stdin.cut === 'idle' ? 'stdin stayed open without ending' : ctx.stdin.cut === 'error' ? 'stdin read failed' : null;
  const parsed = parseHookInput(ctx.stdin.text);
  const fields = parsed.ok ? parsed.input : salvageFields(ctx.stdin.text);
  if (fields.transcriptPath === null) {
    const why = parsed.ok ? 'no transcript_path' : parsed.problem;
    return { job: null, problem: cut === null ? why : `${why}; ${cut}` };
  }
  const job = newCaptureJob({
    sessionId: fields.sessionId,
    transcriptPath: fields.transcriptPath,
    cwd: fields.cwd ?? ctx.env.CLAUDE_PROJECT_DIR ?? ctx.env.FACTORY_PROJECT_DIR ?? null,
    agent: detectAgent(ctx.args, ctx.env, fields.transcriptPath),
    reason: fields.reason,
  });
  return { job, problem: parsed.ok ? null : `${parsed.problem}${cut === null ? '' : `; ${cut}`}` };
}

/** String fields read from a payload that is not whole JSON (cut short): `"name": "value"` pairs. */
function salvageFields(text: string): Pick<HookInput, 'sessionId' | 'transcriptPath' | 'cwd' | 'reason'> {
  const field = (...names: string[]): string | null => {
    for (const name of names) {
      const match = new RegExp(`"${name}"\\s*:\\s*("(?:[^"\\\\]|\\\\.)*")`).exec(text);
      if (match?.[1] === undefined) continue;
      try {
        const value: unknown = JSON.parse(match[1]);
        if (typeof value === 'string' && value.trim() !== '') return value;
      } catch {
        // A broken escape: not this field.
      }
    }
    return null;
  };
  return {
    sessionId: field('session_id', 'sessionId'),
    transcriptPath: field('transcript_path', 'transcriptPath'),
    cwd: field('cwd'),
    reason: field('reason'),
  };
}

/** Never thrown away: a payload with no session to capture is kept in failed/ with its reason, for `recall status` to show. */
function keepUnreadable(paths: StatePaths, ctx: HookContext, problem: string, logger: Logger): void {
  const salvaged = salvageFields(ctx.stdin.text);
  const job: CaptureJob = {
    ...newCaptureJob({ sessionId: salvaged.sessionId, transcriptPath: '', cwd: salvaged.cwd, agent: detectAgent(ctx.args, ctx.env, ''), reason: salvaged.reason }),
    lastError: `the SessionEnd hook could not read its payload: ${problem}`,
    payload: ctx.stdin.text.slice(0, KEPT_PAYLOAD_CHARS),
  };
  try {
    if (stateFolderProblems(paths)[0] !== undefined) throw new Error('the state folder is not safe to write');
    new Spool(paths).keepFailed(job);
    logger.log('warn', `unreadable SessionEnd payload kept in the failed jobs: ${problem}`, { job: job.id, truncated: ctx.stdin.truncated });
  } catch (err) {
    logger.log('error', `unreadable SessionEnd payload (${problem}) could not be kept: ${(err as Error).message}`, { truncated: ctx.stdin.truncated });
  }
}

/** The session's file is covered up to `toByte` now, and the session is closed; a state dir that cannot take the note only costs a later duplicate. */
function recordSpan(home: string, job: CaptureJob, toByte: number | null): void {
  try {
    if (toByte !== null) markCaptured(home, job.sessionId, job.transcriptPath, toByte);
    markSessionClosed(home, job.sessionId);
  } catch {
    // Nothing to do: the job itself is queued.
  }
}
