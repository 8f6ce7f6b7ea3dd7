/** Deterministic vectors for store tests: a seeded generator, so every run builds the same table. */

/** Values in [-0.5, 0.5), the same sequence for the same seed (a linear congruential generator). */
export function seededRandom(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32 - 0.5;
  };
}

/** `v` scaled to unit length. */
export function unitVector(v: Float32Array): Float32Array {
  const n = Math.hypot(...v);
  return v.map((x) => x / n);
}
