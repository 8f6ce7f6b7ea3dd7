/**
 * An ISO 8601 date and time as people and other tools write it, brought to the one form recall stores
 * (`Date#toISOString()`: UTC, milliseconds), so timestamps sort as text. Accepted: a date alone
 * (midnight UTC), a time with or without seconds and with any number of fraction digits, `T` or a
 * space between, and `Z`, an offset (`+02:00`, `+0200`, `-05`) or no zone (read as UTC). Pure.
 */
const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?)?$/i;

/** The timestamp in stored form, or null when it is not a real date and time in an ISO 8601 form. */
export function normalizeTimestamp(value: string): string | null {
  const m = ISO.exec(value.trim());
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
