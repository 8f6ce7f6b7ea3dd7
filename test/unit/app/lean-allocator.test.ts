/** The background upkeep starts with glibc malloc settings that hand freed buffers back; the user's own settings win. */
import { describe, expect, it } from 'vitest';
import { LEAN_ALLOCATOR, withLeanAllocator } from '../../../src/app/lean-allocator.js';

describe('withLeanAllocator', () => {
  it('adds a fixed mmap threshold and two arenas to the environment it is given, keeping the rest', () => {
    const env = withLeanAllocator({ RECALL_HOME: '/tmp/x', PATH: '/bin' });
    expect(env).toMatchObject({ RECALL_HOME: '/tmp/x', PATH: '/bin', MALLOC_ARENA_MAX: '2', MALLOC_MMAP_THRESHOLD_: '1048576', MALLOC_TRIM_THRESHOLD_: '1048576' });
    expect(Object.keys(LEAN_ALLOCATOR).sort()).toEqual(['MALLOC_ARENA_MAX', 'MALLOC_MMAP_THRESHOLD_', 'MALLOC_TRIM_THRESHOLD_']);
  });

  it('leaves a value the user set', () => {
    expect(withLeanAllocator({ MALLOC_ARENA_MAX: '8' }).MALLOC_ARENA_MAX).toBe('8');
  });
});
