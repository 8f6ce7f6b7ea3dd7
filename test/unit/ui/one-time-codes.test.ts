import { describe, expect, it } from 'vitest';
import { createOneTimeCodes } from '../../../src/ui/one-time-codes.js';

describe('createOneTimeCodes', () => {
  it('takes a code once, then refuses it', () => {
    const codes = createOneTimeCodes();
    const code = codes.issue();
    expect(codes.redeem(code)).toBe(true);
    expect(codes.redeem(code)).toBe(false);
  });

  it('refuses a code it never issued, and keeps the others alive', () => {
    const codes = createOneTimeCodes();
    const a = codes.issue();
    const b = codes.issue();
    expect(a).not.toBe(b);
    expect(codes.redeem('made-up')).toBe(false);
    expect(codes.redeem(b)).toBe(true);
    expect(codes.redeem(a)).toBe(true);
  });

  it('refuses a code past its time to live', () => {
    let now = 1_000;
    const codes = createOneTimeCodes(() => now, 500);
    const code = codes.issue();
    now = 1_501;
    expect(codes.redeem(code)).toBe(false);
  });
});
