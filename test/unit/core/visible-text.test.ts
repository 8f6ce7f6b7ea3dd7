import { describe, expect, it } from 'vitest';
import { isInvisible, splitHidden } from '../../../src/core/visible-text.js';

describe('splitHidden', () => {
  it('leaves plain text whole', () => {
    expect(splitHidden('Use pnpm, never npm. Ünïcödé ok')).toEqual([{ text: 'Use pnpm, never npm. Ünïcödé ok' }]);
  });

  it('cuts out every invisible, bidirectional and control character, tag characters included', () => {
    expect(splitHidden('held\u202E for\u200B\u{E0041}x\u001B')).toEqual([
      { text: 'held' }, { codePoint: 0x202e, kind: 'invisible' }, { text: ' for' }, { codePoint: 0x200b, kind: 'invisible' },
      { codePoint: 0xe0041, kind: 'invisible' }, { text: 'x' }, { codePoint: 0x1b, kind: 'control' },
    ]);
  });

  it('keeps the characters asked for', () => {
    expect(splitHidden('a\nb\tc', new Set(['\n']))).toEqual([{ text: 'a\nb' }, { codePoint: 9, kind: 'control' }, { text: 'c' }]);
  });

  it('agrees with the table on every code point of the ranges', () => {
    for (let cp = 0; cp < 0x10000; cp += 1) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      const pieces = splitHidden(`a${String.fromCodePoint(cp)}`);
      const hidden = pieces.some((p) => !('text' in p));
      const control = cp <= 0x1f && cp !== 0x0a ? true : cp >= 0x7f && cp <= 0x9f;
      expect(hidden, cp.toString(16)).toBe(control || isInvisible(cp));
    }
  });
});
