/**
 * The pass and fail counts a test run printed, read from the end of its output, where every common runner
 * sums up (vitest, jest, mocha, pytest, go, cargo, mix, rspec, phpunit, dotnet). Pure; looks at the last few
 * thousand characters only.
 */

export interface TestCounts {
  failed: number;
  passed: number;
}

const TAIL_CHARS = 4_000;
const COUNT = /(\d+(?:,\d{3})*)\s+(passed|passing|failed|failing|failures?|errors?|tests?|examples?|ok)\b/gi;
/** dotnet and phpunit put the label first: `Failed: 1, Passed: 9`, `Tests: 10, Assertions: 20, Failures: 1`. */
const LABEL_FIRST = /\b(passed|failed|failures|errors|tests)\s*:\s*(\d+(?:,\d{3})*)/gi;
/** What every summary line holds: most output holds none of it, and is passed over without splitting it into lines. */
const SUMMARY_WORD = /pass|fail|test result/i;
const SUMMARY_LINE = /\d\s+(?:passed|passing|failed|failing|failures?)\b|\b(?:passed|failed|failures)\s*:\s*\d|\b\d+ (?:tests?|examples?), \d+ failures?\b|^test result:/i;

const num = (text: string): number => Number(text.replace(/,/g, ''));

function countsOf(line: string): TestCounts | undefined {
  let failed = 0;
  let passed = 0;
  let total: number | undefined;
  let seen = false;
  for (const [, n, word] of line.matchAll(COUNT)) {
    const w = (word ?? '').toLowerCase();
    const value = num(n ?? '0');
    if (/^(?:fail|error)/.test(w)) [failed, seen] = [failed + value, true];
    else if (/^pass/.test(w)) [passed, seen] = [passed + value, true];
    else if (/^(?:tests?|examples?)$/.test(w)) total = value;
  }
  for (const [, word, n] of line.matchAll(LABEL_FIRST)) {
    const w = (word ?? '').toLowerCase();
    const value = num(n ?? '0');
    if (w === 'failed' || w === 'failures' || w === 'errors') [failed, seen] = [failed + value, true];
    else if (w === 'passed') [passed, seen] = [passed + value, true];
    else if (w === 'tests') total = value;
  }
  if (!seen) return undefined;
  // `87 tests, 0 failures` (mix, rspec) names the total, not the passes.
  if (passed === 0 && total !== undefined && total >= failed) passed = total - failed;
  return { failed, passed };
}

/** The counts of the run's summary line (the last one; vitest's `Tests` line over its `Test Files` line). */
export function readTestCounts(output: string): TestCounts | undefined {
  const tail = output.slice(-TAIL_CHARS);
  if (!SUMMARY_WORD.test(tail)) return undefined;
  const lines = tail.split('\n').filter((line) => SUMMARY_LINE.test(line));
  if (lines.length === 0) return undefined;
  const tests = lines.filter((line) => /^\s*tests?\b/i.test(line) && !/test files|test suites/i.test(line));
  if (tests.length > 0) return countsOf(tests[tests.length - 1] ?? '');
  const last = countsOf(lines[lines.length - 1] ?? '');
  // mocha prints passes and failures on two lines.
  const before = lines.length > 1 ? countsOf(lines[lines.length - 2] ?? '') : undefined;
  if (last !== undefined && before !== undefined && (last.passed === 0) !== (before.passed === 0)) {
    return { failed: Math.max(last.failed, before.failed), passed: Math.max(last.passed, before.passed) };
  }
  return last;
}

/** `1 failed, 45 passed`, `45 passed`, `2 failed`. */
export function formatTestCounts(counts: TestCounts): string {
  const parts = [counts.failed > 0 ? `${counts.failed} failed` : '', counts.passed > 0 || counts.failed === 0 ? `${counts.passed} passed` : ''];
  return parts.filter((p) => p !== '').join(', ');
}
