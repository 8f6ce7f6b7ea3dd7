import { describe, expect, it } from 'vitest';
import type { CheckResult } from '../../../src/doctor/check-result.js';
import { renderChecks } from '../../../src/doctor/render-checks.js';

const RESULTS: CheckResult[] = [
  { id: 'node', title: 'Node.js', status: 'ok', detail: 'v20.20.2' },
  { id: 'ollama', title: 'Ollama', status: 'fail', detail: 'cannot reach Ollama at http://127.0.0.1:9', fix: 'start it with `ollama serve`' },
];

describe('renderChecks', () => {
  it('puts the fix beneath its check for a person', () => {
    expect(renderChecks(RESULTS, { unicode: false })).toEqual([
      'ok   Node.js  v20.20.2',
      'FAIL Ollama   cannot reach Ollama at http://127.0.0.1:9',
      '     fix:     start it with `ollama serve`',
      '',
      '1 failed.',
    ]);
  });

  it('puts the fix on the check\'s own line when piped, so grep finds them together', () => {
    expect(renderChecks(RESULTS, { unicode: false, oneLine: true }).slice(0, 2)).toEqual([
      'ok   Node.js  v20.20.2',
      'FAIL Ollama   cannot reach Ollama at http://127.0.0.1:9; fix: start it with `ollama serve`',
    ]);
  });
});
