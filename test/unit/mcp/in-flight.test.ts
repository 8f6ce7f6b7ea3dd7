import { describe, expect, it } from 'vitest';
import { createInFlight } from '../../../src/mcp/in-flight.js';

const later = <T>(ms: number, value: T) => new Promise<T>((resolve) => setTimeout(() => resolve(value), ms));

describe('createInFlight', () => {
  it('counts running calls and settles once they are done', async () => {
    const inFlight = createInFlight();
    const call = inFlight.track(() => later(30, 'done'));
    expect(inFlight.size).toBe(1);
    expect(await inFlight.settled(1_000)).toBe(true);
    expect(inFlight.size).toBe(0);
    expect(await call).toBe('done');
  });

  it('gives up waiting after the timeout and says so', async () => {
    const inFlight = createInFlight();
    void inFlight.track(() => later(300, 'slow'));
    expect(await inFlight.settled(20)).toBe(false);
    expect(inFlight.size).toBe(1);
  });

  it('stops counting a call that failed', async () => {
    const inFlight = createInFlight();
    await expect(inFlight.track(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(inFlight.size).toBe(0);
  });
});
