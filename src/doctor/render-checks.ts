/** Doctor results as terminal lines: one per check, its fix indented beneath (or, piped, on the check's own line). Pure. */
import type { CheckResult, CheckStatus } from './check-result.js';

const SYMBOLS: Record<CheckStatus, string> = { ok: '✓', info: '·', warn: '!', fail: '✗' };
const WORDS: Record<CheckStatus, string> = { ok: 'ok  ', info: 'info', warn: 'warn', fail: 'FAIL' };

export function renderChecks(results: readonly CheckResult[], options: { unicode: boolean; oneLine?: boolean }): string[] {
  const width = Math.max(...results.map((r) => r.title.length));
  const lines: string[] = [];
  for (const result of results) {
    const mark = options.unicode ? SYMBOLS[result.status] : WORDS[result.status];
    const fix = result.fix && result.status !== 'ok' && result.status !== 'info' ? result.fix : null;
    if (options.oneLine === true) {
      // grep finds a check with its fix.
      lines.push(`${mark} ${result.title.padEnd(width)}  ${result.detail}${fix === null ? '' : `; fix: ${fix}`}`);
      continue;
    }
    lines.push(`${mark} ${result.title.padEnd(width)}  ${result.detail}`);
    if (fix !== null) lines.push(`${' '.repeat(mark.length + 1)}${'fix:'.padEnd(width)}  ${fix}`);
  }
  lines.push('', summarize(results));
  return lines;
}

export function summarize(results: readonly CheckResult[]): string {
  const failed = results.filter((r) => r.status === 'fail').length;
  const warned = results.filter((r) => r.status === 'warn').length;
  if (failed === 0 && warned === 0) return 'All checks passed.';
  const parts = [failed > 0 ? `${failed} failed` : '', warned > 0 ? `${warned} warning${warned === 1 ? '' : 's'}` : ''].filter(Boolean);
  return `${parts.join(', ')}${failed > 0 ? '' : ' (recall works; see the fixes above)'}.`;
}
