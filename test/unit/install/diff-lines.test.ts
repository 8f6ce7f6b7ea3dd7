import { describe, expect, it } from 'vitest';
import { renderDiff } from '../../../src/install/diff-lines.js';

describe('renderDiff', () => {
  it('marks added and removed lines and keeps unchanged neighbours as context', () => {
    expect(renderDiff('a\nb\nc', 'a\nB\nc\nd')).toEqual(['  a', '- b', '+ B', '  c', '+ d']);
  });

  it('is empty when nothing changed', () => {
    expect(renderDiff('a\nb', 'a\nb')).toEqual([]);
  });

  it('leaves out unchanged lines far from any change', () => {
    const before = Array.from({ length: 20 }, (_, i) => `line ${i}`);
    const after = [...before];
    after[1] = 'changed 1';
    after[18] = 'changed 18';
    const lines = renderDiff(before.join('\n'), after.join('\n'), 1);
    expect(lines).toEqual(['  line 0', '- line 1', '+ changed 1', '  line 2', '...', '  line 17', '- line 18', '+ changed 18', '  line 19']);
  });
});
