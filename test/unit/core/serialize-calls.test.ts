import { describe, expect, it } from 'vitest';
import { serializeCalls } from '../../../src/core/serialize-calls.js';

const later = <T>(ms: number, value: T) => new Promise<T>((resolve) => setTimeout(() => resolve(value), ms));

describe('serializeCalls', () => {
  it('runs calls one after another, and a failed one does not stop the next', async () => {
    const queue = serializeCalls();
    const events: string[] = [];
    const step = (name: string, ms: number, fail = false) =>
      queue(async () => {
        events.push(`start ${name}`);
        await later(ms, null);
        events.push(`end ${name}`);
        if (fail) throw new Error(name);
        return name;
      });
    const results = await Promise.allSettled([step('a', 30, true), step('b', 5), step('c', 1)]);
    expect(events).toEqual(['start a', 'end a', 'start b', 'end b', 'start c', 'end c']);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'fulfilled', 'fulfilled']);
  });
});
