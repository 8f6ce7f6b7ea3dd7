import { describe, expect, it } from 'vitest';
import { answerDeadline } from '../../../src/hook/post-tool-use.js';

describe('answerDeadline', () => {
  it('counts from the process start and keeps a reserve of a tenth of the timeout', () => {
    expect(answerDeadline(1_000_000, 5_000)).toBe(1_000_000 + 5_000 - 500);
  });

  it('keeps at least 100 ms and at most one second in reserve', () => {
    expect(answerDeadline(0, 500)).toBe(400);
    expect(answerDeadline(0, 60_000)).toBe(59_000);
  });
});
