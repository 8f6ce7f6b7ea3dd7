import { describe, expect, it } from 'vitest';
import { isObject } from '../../../src/core/is-object.js';
import { balancedJsonValues, jsonCandidates, withoutThinking } from '../../../src/core/lenient-json.js';
import { parseObservationAnswer } from '../../../src/endless/observation.js';

describe('lenient JSON', () => {
  it('finds the whole text, then each fence, then each balanced slice, skipping what does not parse', () => {
    const text = 'Sure!\n```json\n{"a": 1,}\n```\nand [2, 3]';
    expect([...jsonCandidates(text)]).toEqual([{ a: 1 }, { a: 1 }, [2, 3]]);
  });

  it('keeps the complete objects of an answer cut off half-way', () => {
    expect([...balancedJsonValues('[{"content": "one"}, {"content": "tw')]).toEqual([{ content: 'one' }]);
  });

  it('drops think blocks before reading', () => {
    expect(withoutThinking('<think>{"no": 1}</think>\n {"yes": 1} ')).toBe('{"yes": 1}');
  });

  it('reads an observation with a trailing comma and chatter around it', () => {
    const check = parseObservationAnswer('Here it is: {"type": "discovery", "title": "Tests pass", "facts": ["12 passed",],} done');
    expect(check).toMatchObject({ ok: true, observation: { title: 'Tests pass', facts: ['12 passed'] } });
  });

  it('counts only plain objects as objects', () => {
    expect([{}, [], null, 'x', 1].map(isObject)).toEqual([true, false, false, false, false]);
  });
});
