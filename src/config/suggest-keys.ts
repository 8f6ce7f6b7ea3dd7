/** Config keys that look like a mistyped one. Pure, plain code: the hooks use it too. */
import { listTableKeys } from './key-table.js';

/** Up to `max` keys that look like `name`: same last segment, a few typos away, or containing it. */
export function suggestConfigKeys(name: string, keys: ReadonlyArray<{ key: string }> = listTableKeys(), max = 5): string[] {
  const wanted = name.toLowerCase();
  const wantedGroup = wanted.includes('.') ? wanted.slice(0, wanted.lastIndexOf('.')) : null;
  const wantedLast = wanted.slice(wanted.lastIndexOf('.') + 1);
  const scored: Array<{ key: string; score: number }> = [];
  for (const { key } of keys) {
    const lower = key.toLowerCase();
    const group = lower.slice(0, Math.max(0, lower.lastIndexOf('.')));
    const last = lower.slice(lower.lastIndexOf('.') + 1);
    // A group given must be about right; then the share of the last segment's characters that differ.
    if (wantedGroup !== null && editDistance(wantedGroup, group) > 2) continue;
    const score = relativeDistance(wantedLast, last);
    if (score <= 0.5) scored.push({ key, score });
    else if (wantedLast.length >= 3 && last.includes(wantedLast)) scored.push({ key, score: 1 });
  }
  return scored
    .sort((a, b) => a.score - b.score || a.key.localeCompare(b.key))
    .slice(0, max)
    .map((s) => s.key);
}

function relativeDistance(a: string, b: string): number {
  return editDistance(a, b) / Math.max(a.length, b.length, 1);
}

/** Edits (insert, delete, substitute, swap two neighbours) that turn `a` into `b`. */
function editDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i += 1) {
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = best;
    }
  }
  return rows[a.length]![b.length]!;
}
