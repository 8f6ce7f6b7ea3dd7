/**
 * SessionEnd: queue the transcript for capture and hand off to a detached worker.
 * Node built-ins only; never reads the transcript; all SessionEnd hooks share a 1.5 s budget.
 * When the state dir cannot take the job file (full disk, quota, read-only, I/O error), the job
 * goes to a fallback spool on another file system, which the worker adopts once there is room.
 */
import { dirname } from 'node:path';
import { unknownKeysInHome } from '../config/unknown-keys-in-home.js';
import { fileLogger } from '../core/log.js';
import { stateFolderProblems } from '../core/private-paths.js';
import { hookSpawnAllowed } from '../core/process-switches.js';
import { statePaths } from '../core/state-paths.js';
import { newCaptureJob, type CaptureJob } from '../queue/job.js';
import { detectAgent } from './hook-agent.js';
import { markCaptured, markSessionClosed, uncapturedSpan } from '../queue/session-ledger.js';
import { Spool } from '../queue/spool.js';
import type { HookContext } from './hook-context.js';
import { parseHookInput } from './hook-input.js';
import { spawnDetachedWorker } from './spawn-worker.js';

export async function sessionEndHook(ctx: HookContext): Promise<Record<string, unknown>> {
  const paths = statePaths(ctx.home);
  const logger = fileLogger(paths.logFile, 'hook.session-end');
  // Once a session, the line every command prints on stderr about keys recall ignores.
  const unknownKeys = unknownKeysInHome(ctx.home);
  if (unknownKeys !== null) logger.log('warn', unknownKeys);
  const parsed = parseHookInput(ctx.stdin.text);
  if (!parsed.ok) {
    logger.log('warn', `ignored SessionEnd payload: ${parsed.problem}`, { truncated: ctx.stdin.truncated });
    return {};
  }
  const { input } = parsed;
  if (!input.transcriptPath) {
    logger.log('warn', 'SessionEnd payload has no transcript_path; nothing to capture', { sessionId: input.sessionId });
    return {};
  }
  const agent = detectAgent(ctx.args, ctx.env, input.transcriptPath);
  // Codex sessions are captured in parts (a later SessionStart may have captured an idle one): only what is new.
  const span = agent === 'codex' ? uncapturedSpan(ctx.home, input.sessionId, input.transcriptPath) : undefined;
  if (span === null) {
    markSessionClosed(ctx.home, input.sessionId);
    logger.log('info', 'nothing new in the session since its last capture', { sessionId: input.sessionId });
    return {};
  }
  const job = newCaptureJob({
    sessionId: input.sessionId,
    transcriptPath: input.transcriptPath,
    cwd: input.cwd ?? ctx.env.CLAUDE_PROJECT_DIR ?? ctx.env.FACTORY_PROJECT_DIR ?? null,
    agent,
    reason: input.reason,
    ...(span === undefined ? {} : { fromByte: span.fromByte, toByte: span.toByte }),
  });
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
  const spawned = await spawnDetachedWorker(ctx.env, workerCwd);
  if (!spawned) logger.log('warn', 'could not start the worker; the job stays queued for the next run', { job: job.id });
  return {};
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
