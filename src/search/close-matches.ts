/** "Did you mean" suggestions for a mistyped name. Pure. */

/**
 * Up to `max` candidates close to `input`, closest first: those that contain it or are contained in it
 * (case-insensitive), then those within an edit distance of a third of the input's length (at least 2).
 */
export function closeMatches(input: string, candidates: readonly string[], max = 3): string[] {
  const needle = input.toLowerCase();
  if (needle === '') return [];
  const limit = Math.max(2, Math.floor(needle.length / 3));
  const scored: Array<{ candidate: string; distance: number }> = [];
  for (const candidate of new Set(candidates)) {
    const hay = candidate.toLowerCase();
    if (hay === needle) continue;
    const distance = hay.includes(needle) || needle.includes(hay) ? 0 : editDistance(needle, hay, limit);
    if (distance <= limit) scored.push({ candidate, distance });
  }
  scored.sort((a, b) => a.distance - b.distance || a.candidate.localeCompare(b.candidate));
  return scored.slice(0, max).map((s) => s.candidate);
}

/** Levenshtein distance, or `limit + 1` as soon as it must exceed `limit`. */
export function editDistance(a: string, b: string, limit = Number.POSITIVE_INFINITY): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const value = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost);
      current.push(value);
      rowMin = Math.min(rowMin, value);
    }
    if (rowMin > limit) return limit + 1;
    previous = current;
  }
  return previous[b.length] ?? limit + 1;
}
