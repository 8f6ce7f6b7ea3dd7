/** A generator of floats in [0, 1) from `seed` (mulberry32). */
export function seededRandom(seed: number): () => number;
