/**
 * `--since`: an ISO date (`2024-05-01`, read as UTC midnight), an ISO date-time (`2024-05-01T10:00Z`),
 * or a span back from now (`30m`, `12h`, `7d`, `2w`). Pure: the caller passes the current time.
 */
import { RecallError } from '../core/errors.js';

const UNIT_MS: Readonly<Record<string, number>> = {
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 7 * 86_400_000,
};

const RELATIVE = /^(\d{1,6})\s*([mhdw])$/i;
const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})$/i;

const HELP = 'use an ISO date like 2024-05-01, a date-time like 2024-05-01T10:00:00Z, or a span like 30m, 12h, 7d, 2w';

export function parseSince(value: string, now: Date): Date {
  const text = value.trim();
  const relative = RELATIVE.exec(text);
  if (relative) {
    const amount = Number(relative[1]);
    const unit = UNIT_MS[(relative[2] ?? '').toLowerCase()] ?? Number.NaN;
    return new Date(now.getTime() - amount * unit);
  }
  const dateOnly = DATE_ONLY.exec(text);
  let at: Date | null = null;
  if (dateOnly) {
    const [year, month, day] = [Number(dateOnly[1]), Number(dateOnly[2]), Number(dateOnly[3])];
    const candidate = new Date(Date.UTC(year, month - 1, day));
    // Date.UTC rolls 2024-02-30 over to March; a real date survives the round trip.
    if (candidate.getUTCFullYear() === year && candidate.getUTCMonth() === month - 1 && candidate.getUTCDate() === day) at = candidate;
  } else if (DATE_TIME.test(text)) {
    const ms = Date.parse(text);
    if (Number.isFinite(ms)) at = new Date(ms);
  }
  if (at === null) throw new RecallError('INPUT_INVALID', `--since "${value}" is not a date or a span; ${HELP}`);
  if (at.getTime() > now.getTime()) throw new RecallError('INPUT_INVALID', `--since "${value}" is in the future`);
  return at;
}
