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
import { copilotSessionFile } from './copilot-session-file.js';
import { detectAgent, namedAgent } from './hook-agent.js';
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
  const job = partOfSession(ctx.home, whole);
  if (job === null) {
    markSessionClosed(ctx.home, whole.sessionId);
    logger.log('info', 'nothing new in the session since its last capture', { sessionId: whole.sessionId });
    return {};
  }
  const [unsafe] = stateFolderProblems(paths);
  if (unsafe !== undefined) {
    // Never queue into a folder someone else controls; doctor names the problem.
    logger.log('error', `not queued: ${unsafe}`, { sessionId: job.sessionId });
    return {};
  }
  let workerCwd = paths.home;
  try {
    new Spool(paths).enqueue(job);
    if (inParts(job)) recordSpan(ctx.home, job);
    logger.log('info', 'queued capture', { job: job.id, sessionId: job.sessionId, reason: job.reason });
  } catch (err) {
    // Loaded only here: the common path stays as small as it was.
    const { enqueueFallback } = await import('../queue/fallback-spool.js');
    try {
      const file = enqueueFallback(job, paths.home);
      workerCwd = dirname(file);
      if (inParts(job)) recordSpan(ctx.home, job);
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
  const waitForModel = () => workerCwd === paths.home && jobsWaitForModel(paths.home, paths.configFile, ctx.env);
  if (waitForModel()) {
    logger.log('info', 'queued; no worker started: queued jobs wait for an extraction model', { job: job.id });
    return {};
  }
  // Asked again once the start is claimed: a worker leaving at this moment notes the wait first.
  const started = await spawnDetachedWorker(ctx.env, workerCwd, paths.home, waitForModel);
  if (started === 'not needed') logger.log('info', 'queued; no worker started: queued jobs wait for an extraction model', { job: job.id });
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
  const sent = parsed.ok ? parsed.input : salvageFields(ctx.stdin.text);
  const fields = sent.transcriptPath === null && isCopilot(ctx) ? { ...sent, transcriptPath: copilotSessionFile(ctx.env, sent.sessionId) } : sent;
  if (fields.transcriptPath === null) {
    const why = parsed.ok ? 'no transcript_path' : parsed.problem;
    return { job: null, problem: cut === null ? why : `${why}; ${cut}` };
  }
  const job = newCaptureJob({
    sessionId: fields.sessionId,
    transcriptPath: fields.transcriptPath,
    cwd: fields.cwd ?? ctx.env.CLAUDE_PROJECT_DIR ?? ctx.env.FACTORY_PROJECT_DIR ?? ctx.env.QWEN_PROJECT_DIR ?? null,
    agent: detectAgent(ctx.args, ctx.env, fields.transcriptPath),
    reason: fields.reason,
  });
  return { job, problem: parsed.ok ? null : `${parsed.problem}${cut === null ? '' : `; ${cut}`}` };
}

/** GitHub Copilot CLI's SessionEnd payload names no transcript: the session id says where it is. */
function isCopilot(ctx: HookContext): boolean {
  const named = namedAgent(ctx.args);
  return named === 'copilot' || (named === null && ctx.env.COPILOT_CLI === '1');
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

/**
 * The job to queue for this session: all of it, or for sessions captured in parts, only what no capture covered;
 * null when nothing is new. Codex and Copilot CLI sessions come in parts (a later SessionStart may have captured an
 * idle Codex session; Copilot's prompt mode ends a session after every turn, and a resumed session grows the same
 * file). Copilot writes a session's last events after its SessionEnd hook ran, so its job leaves the end open and
 * the worker fixes it once the file has stopped growing (worker/settle-span.ts); no waiting here.
 */
function partOfSession(home: string, whole: CaptureJob): CaptureJob | null {
  // Even a file no bigger than the covered bytes is queued: what this session wrote may not be in it yet.
  if (whole.agent === 'copilot') return { ...whole, uncovered: true };
  if (whole.agent !== 'codex' && whole.agent !== 'qwen') return whole;
  const span = uncapturedSpan(home, whole.sessionId, whole.transcriptPath);
  return span === null ? null : { ...whole, fromByte: span.fromByte, toByte: span.toByte };
}

function inParts(job: CaptureJob): boolean {
  return job.uncovered === true || typeof job.fromByte === 'number';
}

/**
 * The session's file is covered up to the job's fixed end now (an open end: the worker records it), and the
 * session is closed; a state dir that cannot take the note only costs a later duplicate.
 */
function recordSpan(home: string, job: CaptureJob): void {
  try {
    if (job.uncovered !== true && typeof job.toByte === 'number') markCaptured(home, job.sessionId, job.transcriptPath, job.toByte);
    markSessionClosed(home, job.sessionId);
  } catch {
    // Nothing to do: the job itself is queued.
  }
}
