import { describe, expect, it } from 'vitest';
import { parseHookInput } from '../../../src/hook/hook-input.js';

describe('parseHookInput', () => {
  it('reads the snake_case fields Claude Code sends', () => {
    const result = parseHookInput(
      JSON.stringify({ session_id: 's1', transcript_path: '/t.jsonl', cwd: '/p', hook_event_name: 'SessionEnd', reason: 'clear' }),
    );
    expect(result).toEqual({
      ok: true,
      input: { sessionId: 's1', transcriptPath: '/t.jsonl', cwd: '/p', event: 'SessionEnd', reason: 'clear', source: null },
    });
  });

  it('accepts camelCase variants and ignores unknown fields', () => {
    const result = parseHookInput(JSON.stringify({ sessionId: 's2', transcriptPath: '/x.jsonl', extra: { deep: true } }));
    expect(result.ok && result.input.sessionId).toBe('s2');
    expect(result.ok && result.input.transcriptPath).toBe('/x.jsonl');
  });

  it('drops fields of the wrong type instead of failing', () => {
    const result = parseHookInput(JSON.stringify({ session_id: 42, transcript_path: ['a'], cwd: null }));
    expect(result).toEqual({
      ok: true,
      input: { sessionId: null, transcriptPath: null, cwd: null, event: null, reason: null, source: null },
    });
  });

  it.each([
    ['', 'empty stdin'],
    ['not json', 'stdin is not JSON (or was cut at the size cap)'],
    ['[1,2]', 'stdin JSON is not an object'],
    ['"text"', 'stdin JSON is not an object'],
    ['null', 'stdin JSON is not an object'],
  ])('rejects %j with a reason', (text, problem) => {
    expect(parseHookInput(text)).toEqual({ ok: false, problem });
  });
});
