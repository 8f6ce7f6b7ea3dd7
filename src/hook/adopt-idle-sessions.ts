/**
 * At SessionStart: queue the sessions that ended without a SessionEnd hook (Codex's Stop hook marked them
 * open, and neither a Stop nor a write to their file has come for IDLE_SESSION_MS), each for the part of
 * its file no capture has covered yet. Node built-ins only; a failure only logs.
 */
import type { Logger } from '../core/log.js';
import { stateFolderProblems } from '../core/private-paths.js';
import type { StatePaths } from '../core/state-paths.js';
import { newCaptureJob } from '../queue/job.js';
import { idleSessions, markCaptured, markSessionClosed, uncapturedSpan } from '../queue/session-ledger.js';
import { Spool } from '../queue/spool.js';

/** Queues every idle open session; returns how many jobs it queued. */
export function adoptIdleSessions(paths: StatePaths, currentSessionId: string | null, now: number, logger: Logger, idleMs?: number): number {
  let queued = 0;
  try {
    const idle = idleSessions(paths.home, now, { exceptSessionId: currentSessionId, ...(idleMs === undefined ? {} : { idleMs }) });
    if (idle.length === 0 || stateFolderProblems(paths).length > 0) return 0;
    const spool = new Spool(paths);
    for (const session of idle) {
      const span = uncapturedSpan(paths.home, session.sessionId, session.transcriptPath);
      if (span !== null) {
        const { sessionId, transcriptPath, cwd, agent } = session;
        const job = newCaptureJob({ sessionId, transcriptPath, cwd, agent, reason: 'idle', fromByte: span.fromByte, toByte: span.toByte });
        spool.enqueue(job);
        if (span.toByte !== null) markCaptured(paths.home, session.sessionId, session.transcriptPath, span.toByte);
        queued += 1;
        logger.log('info', 'queued capture of a session that ended without SessionEnd', { job: job.id, sessionId: session.sessionId, fromByte: span.fromByte, toByte: span.toByte });
      }
      markSessionClosed(paths.home, session.sessionId);
    }
  } catch (err) {
    logger.log('warn', `could not queue idle sessions: ${(err as Error).message}`);
  }
  return queued;
}
