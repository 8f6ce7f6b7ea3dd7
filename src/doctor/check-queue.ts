/** Capture queue health: nothing failed, nothing stuck. Pure. */
import type { CheckResult } from './check-result.js';

export interface QueueProbe {
  pending: number;
  processing: number;
  failed: number;
  /** When the oldest pending job was queued. */
  oldestPendingAt: Date | null;
}

export const STUCK_AFTER_MS = 60 * 60 * 1000;

export function checkQueue(probe: QueueProbe, now: Date, stuckAfterMs = STUCK_AFTER_MS): CheckResult {
  const base = { id: 'queue', title: 'Capture queue' } as const;
  const ageMs = probe.oldestPendingAt ? now.getTime() - probe.oldestPendingAt.getTime() : 0;
  const oldest = probe.oldestPendingAt ? ` (oldest ${formatDuration(ageMs)} old)` : '';
  const detail = `${probe.pending} pending${oldest}, ${probe.processing} processing, ${probe.failed} failed`;
  const fixes: string[] = [];
  if (probe.failed > 0) fixes.push('recall retry (after fixing the cause `recall status` shows)');
  if (probe.pending > 0 && ageMs > stuckAfterMs) fixes.push('`recall status` shows why jobs wait; `recall drain` runs them now');
  if (fixes.length > 0) return { ...base, status: 'warn', detail, fix: fixes.join('; ') };
  return { ...base, status: 'ok', detail };
}

function formatDuration(ms: number): string {
  const minutes = Math.floor(Math.max(0, ms) / 60_000);
  if (minutes < 1) return 'under a minute';
  if (minutes < 60) return `${minutes} min`;
  if (minutes < 48 * 60) return `${Math.floor(minutes / 60)} h`;
  return `${Math.floor(minutes / 1440)} days`;
}
