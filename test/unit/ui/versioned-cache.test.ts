import { describe, expect, it } from 'vitest';
import type { MemoryStore } from '../../../src/core/ports.js';
import { createVersionedCache } from '../../../src/ui/versioned-cache.js';

describe('createVersionedCache', () => {
  it('computes once per table version and row count, and again when either changes', async () => {
    let version = 1;
    let rows = 10;
    const store = { dataVersion: async () => version, count: async () => rows } as unknown as MemoryStore;
    const cached = createVersionedCache(async () => store);
    let computed = 0;
    const compute = async () => (computed += 1);
    expect(await cached('k', compute)).toBe(1);
    expect(await cached('k', compute)).toBe(1);
    version = 2;
    expect(await cached('k', compute)).toBe(2);
    rows = 11;
    expect(await cached('k', compute)).toBe(3);
    expect(await cached('other', compute)).toBe(4);
  });

  it('computes every time for a store that cannot say its version', async () => {
    const cached = createVersionedCache(async () => ({ count: async () => 1 }) as unknown as MemoryStore);
    let computed = 0;
    await cached('k', async () => (computed += 1));
    await cached('k', async () => (computed += 1));
    expect(computed).toBe(2);
  });
});
