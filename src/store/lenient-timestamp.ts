/**
 * An ISO 8601 date and time as people and other tools write it, brought to the one form recall stores
 * (`Date#toISOString()`: UTC, milliseconds), so timestamps sort as text. Accepted: a date alone
 * (midnight UTC), a time with or without seconds and with any number of fraction digits, `T` (either case)
 * or a space between, `Z` (either case), an offset (`+02:00`, `+0200`, `-05`) or no zone (read as UTC), and the
 * basic format without separators (`20240501T100000Z`). Pure.
 */
const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?)?$/i;
/** ISO 8601's basic format: `20240501`, `20240501T1000Z`, `20240501T100000.5+0200`. */
const BASIC = /^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(?:(\d{2})(?:[.,](\d+))?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?)?$/i;
/** Past this, a number is milliseconds since 1970 rather than seconds (1e11 seconds is the year 5138). */
const MILLISECONDS_FROM = 1e11;

/** The timestamp in stored form, or null when it is not a real date and time in an ISO 8601 form. */
export function normalizeTimestamp(value: string): string | null {
  const m = ISO.exec(value.trim()) ?? BASIC.exec(value.trim());
  if (m === null) return null;
  const [year, month, day, hour = 0, minute = 0, second = 0] = [m[1], m[2], m[3], m[4], m[5], m[6]].map((part) => (part === undefined ? undefined : Number(part))) as number[];
  const ms = m[7] === undefined ? 0 : Math.floor(Number(`0.${m[7]}`) * 1000);
  if (month === undefined || day === undefined || year === undefined) return null;
  if (month < 1 || month > 12 || hour > 23 || minute > 59 || second > 59) return null;
  const local = Date.UTC(year, month - 1, day, hour, minute, second, ms);
  const check = new Date(local);
  if (check.getUTCFullYear() !== year || check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day) return null;
  const offset = offsetMinutes(m[8]);
  if (offset === null) return null;
  const at = new Date(local - offset * 60_000);
  return Number.isFinite(at.getTime()) ? at.toISOString() : null;
}

/** Minutes east of UTC; 0 for `Z` or no zone; null for an offset past 14 hours or 59 minutes. */
function offsetMinutes(zone: string | undefined): number | null {
  if (zone === undefined || zone.toUpperCase() === 'Z') return 0;
  const sign = zone.startsWith('-') ? -1 : 1;
  const digits = zone.slice(1).replace(':', '');
  const hours = Number(digits.slice(0, 2));
  const minutes = digits.length > 2 ? Number(digits.slice(2)) : 0;
  if (hours > 14 || minutes > 59) return null;
  return sign * (hours * 60 + minutes);
}

/**
 * A Unix time as other tools export it (OpenMemory and others write `created_at` as a number): seconds, or
 * milliseconds when it is that large; null for a number that is no time at all.
 */
export function normalizeEpoch(value: number): string | null {
  if (!Number.isFinite(value) || value < 0) return null;
  const at = new Date(value >= MILLISECONDS_FROM ? value : value * 1000);
  return Number.isFinite(at.getTime()) ? at.toISOString() : null;
}
