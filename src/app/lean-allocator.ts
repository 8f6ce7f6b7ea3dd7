/**
 * glibc malloc settings for the processes recall starts to do big store work (the background upkeep).
 * LanceDB's scans and index builds free most of what they allocate, but glibc keeps it: by default it
 * raises its mmap threshold as big buffers are freed (so later ones come from the heap and stay there)
 * and gives each thread an arena of its own. A fixed 1 MiB threshold and two arenas hand big buffers
 * back to the system when freed. Measured on the unindexed 1M-row bench store: the upkeep after an
 * import (text and id indexes, compaction) peaked at about 900 MB without them and 540 MB with them,
 * and a `recall import` of 1,000 lines started with them peaked at 265 MB instead of about 350 MB,
 * no slower (docs/import-memory.md). Other C libraries ignore these variables; a value the user set wins.
 */
export const LEAN_ALLOCATOR: Readonly<Record<string, string>> = Object.freeze({
  MALLOC_ARENA_MAX: '2',
  MALLOC_MMAP_THRESHOLD_: '1048576',
  MALLOC_TRIM_THRESHOLD_: '1048576',
});

/** `env` with the lean allocator settings added where it does not set them itself. */
export function withLeanAllocator(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return { ...LEAN_ALLOCATOR, ...env };
}
