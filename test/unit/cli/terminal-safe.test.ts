import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { terminalSafe } from '../../../src/cli/terminal-safe.js';

describe('terminalSafe', () => {
  it('turns escape sequences into visible text that cannot set the title or clear the screen', () => {
    expect(terminalSafe('Use pnpm.\u001b]0;pwned\u0007\u001b[2J')).toBe('Use pnpm.?]0;pwned??[2J');
    expect(terminalSafe('a\u009b31mb')).toBe('a?31mb');
  });

  it('shows invisible and bidirectional characters by code point and keeps one memory on one line', () => {
    expect(terminalSafe('use\u202Etxt.exe\u200B')).toBe('use\\u{202E}txt.exe\\u{200B}');
    expect(terminalSafe('tag\u{E0041}')).toBe('tag\\u{E0041}');
    expect(terminalSafe('one\ntwo\r\nthree')).toBe('one two three');
  });

  it('leaves ordinary text alone, accents and emoji included', () => {
    expect(terminalSafe('Préfère les tests — 🚀 <b>ok</b>\tdone')).toBe('Préfère les tests — 🚀 <b>ok</b>?done');
  });

  it('never lets a control character through, whatever the input', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (s) => {
        // eslint-disable-next-line no-control-regex
        expect(/[\u0000-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/.test(terminalSafe(s))).toBe(false);
      }),
    );
  });
});
