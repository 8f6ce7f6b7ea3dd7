import { describe, expect, it } from 'vitest';
import { readCursor, writeCursor } from '../../../src/ui/memories-cursor.js';

describe('the place of a memories page in a link', () => {
  it('reads back what it wrote, an id with ~ in it included', () => {
    const place = { createdAt: '2026-01-01T10:00:00.000Z', id: '01J~odd~id' };
    expect(readCursor(writeCursor(place))).toEqual(place);
  });

  it('reads anything else as no place', () => {
    for (const value of [undefined, '', '~x', 'x~', 'yesterday~x', '2026-01-01T10:00:00.000Z', `2026-01-01T10:00:00.000Z~${'x'.repeat(400)}`]) {
      expect(readCursor(value)).toBeUndefined();
    }
  });
});
