import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { RecallError, describeError, isRecallError } from '../../../src/core/errors.js';

const built = new URL('../../../dist/core/errors.js', import.meta.url).href;

describe('RecallError', () => {
  it('is recognised with its code, and plain errors are not', () => {
    const err = new RecallError('LLM_UNAVAILABLE', 'Ollama is not answering');
    expect(isRecallError(err, 'LLM_UNAVAILABLE')).toBe(true);
    expect(isRecallError(err, 'LLM_TIMEOUT')).toBe(false);
    expect(describeError(err)).toBe('LLM_UNAVAILABLE: Ollama is not answering');
    expect(err.transient).toBe(true);
    expect(isRecallError(new Error('x'))).toBe(false);
    expect(isRecallError({ code: 'LLM_UNAVAILABLE', name: 'RecallError' })).toBe(false);
    expect(describeError(new Error('first\nsecond'))).toBe('first');
  });

  it('made by one copy of the module is a RecallError to another copy, as in a folded entry file', () => {
    // Two imports of the built module under different URLs are two module instances, two classes.
    const script = `
      const a = await import(${JSON.stringify(`${built}?copy=a`)});
      const b = await import(${JSON.stringify(`${built}?copy=b`)});
      const err = new b.RecallError('TRANSCRIPT_UNREADABLE', 'line 3 is not JSON');
      console.log(JSON.stringify([a.RecallError !== b.RecallError, err instanceof a.RecallError, a.isRecallError(err, 'TRANSCRIPT_UNREADABLE'), a.describeError(err), err instanceof Error]));
    `;
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', cwd: fileURLToPath(new URL('../../..', import.meta.url)) });
    expect(JSON.parse(out)).toEqual([true, true, true, 'TRANSCRIPT_UNREADABLE: line 3 is not JSON', true]);
  });
});
