import { afterEach, describe, expect, it } from 'vitest';
import { openLanceStore } from '../../src/adapters/lance-store.js';
import { useTempDirs } from '../support/temp-dir.js';

const tempDir = useTempDirs();
const before = process.env.LANCE_IO_THREADS;

afterEach(() => {
  if (before === undefined) delete process.env.LANCE_IO_THREADS;
  else process.env.LANCE_IO_THREADS = before;
});

describe("Lance's reads at once in a process that stays up", () => {
  it('are not bounded for a command that opens the store and leaves', async () => {
    delete process.env.LANCE_IO_THREADS;
    const store = await openLanceStore(tempDir());
    await store.close();
    expect(process.env.LANCE_IO_THREADS).toBeUndefined();
  });

  it('are bounded for a long-lived process on a local store, so its blocking pool cannot grow with them', async () => {
    delete process.env.LANCE_IO_THREADS;
    const store = await openLanceStore(tempDir(), { longLived: true });
    await store.close();
    expect(process.env.LANCE_IO_THREADS).toBe('2');
  });

  it("leave the user's own setting alone", async () => {
    process.env.LANCE_IO_THREADS = '16';
    const store = await openLanceStore(tempDir(), { longLived: true });
    await store.close();
    expect(process.env.LANCE_IO_THREADS).toBe('16');
  });
});
