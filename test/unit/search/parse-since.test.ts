import { describe, expect, it } from 'vitest';
import { isRecallError } from '../../../src/core/errors.js';
import { parseSince } from '../../../src/search/parse-since.js';

const NOW = new Date('2024-05-10T12:00:00.000Z');

function errorOf(value: string): string {
  try {
    parseSince(value, NOW);
  } catch (err) {
    if (isRecallError(err, 'INPUT_INVALID')) return err.message;
  }
  return 'no error';
}

describe('parseSince', () => {
  it('reads spans back from now in minutes, hours, days and weeks', () => {
    expect(parseSince('30m', NOW).toISOString()).toBe('2024-05-10T11:30:00.000Z');
    expect(parseSince('12h', NOW).toISOString()).toBe('2024-05-10T00:00:00.000Z');
    expect(parseSince('7d', NOW).toISOString()).toBe('2024-05-03T12:00:00.000Z');
    expect(parseSince('2W', NOW).toISOString()).toBe('2024-04-26T12:00:00.000Z');
  });

  it('reads an ISO date as UTC midnight and an ISO date-time with its offset', () => {
    expect(parseSince('2024-05-01', NOW).toISOString()).toBe('2024-05-01T00:00:00.000Z');
    expect(parseSince('2024-05-01T10:00:00+02:00', NOW).toISOString()).toBe('2024-05-01T08:00:00.000Z');
    expect(parseSince('2024-05-01T10:00Z', NOW).toISOString()).toBe('2024-05-01T10:00:00.000Z');
  });

  it('rejects words, unknown units, impossible dates and dates in the future with one clear message', () => {
    expect(errorOf('yesterday')).toMatch(/--since "yesterday" is not a date or a span; use an ISO date/);
    expect(errorOf('7x')).toMatch(/is not a date or a span/);
    expect(errorOf('-7d')).toMatch(/is not a date or a span/);
    expect(errorOf('2024-02-30')).toMatch(/is not a date or a span/);
    expect(errorOf('2024-13-01')).toMatch(/is not a date or a span/);
    expect(errorOf('')).toMatch(/is not a date or a span/);
    expect(errorOf('2030-01-01')).toBe('--since "2030-01-01" is in the future');
  });
});
