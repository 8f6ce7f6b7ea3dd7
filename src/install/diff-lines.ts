/** A small line diff for `--dry-run`: unified-style hunks with `+`/`-` markers. Pure. */

type Op = { kind: ' ' | '-' | '+'; line: string };

/** Lines of `before` and `after` marked as kept, removed or added, in order (longest common subsequence). */
export function diffLines(before: readonly string[], after: readonly string[]): Op[] {
  const n = before.length;
  const m = after.length;
  const common: number[][] = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      common[i]![j] = before[i] === after[j] ? common[i + 1]![j + 1]! + 1 : Math.max(common[i + 1]![j]!, common[i]![j + 1]!);
    }
  }
  const ops: Op[] = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && before[i] === after[j]) {
      ops.push({ kind: ' ', line: before[i++]! });
      j++;
    } else if (i < n && (j === m || common[i + 1]![j]! >= common[i]![j + 1]!)) {
      ops.push({ kind: '-', line: before[i++]! });
    } else {
      ops.push({ kind: '+', line: after[j++]! });
    }
  }
  return ops;
}

/** The changed lines with `context` unchanged lines around each change; `...` between hunks. Empty when nothing changed. */
export function renderDiff(before: string, after: string, context = 3): string[] {
  const ops = diffLines(before.split('\n'), after.split('\n'));
  if (ops.every((op) => op.kind === ' ')) return [];
  const keep = ops.map((op, index) => op.kind !== ' ' || ops.slice(Math.max(0, index - context), index + context + 1).some((o) => o.kind !== ' '));
  const out: string[] = [];
  let skipped = false;
  ops.forEach((op, index) => {
    if (!keep[index]) {
      skipped = true;
      return;
    }
    if (skipped && out.length > 0) out.push('...');
    skipped = false;
    out.push(`${op.kind} ${op.line}`);
  });
  return out;
}
