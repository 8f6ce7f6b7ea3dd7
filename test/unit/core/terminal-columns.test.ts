import { describe, expect, it } from 'vitest';
import { terminalColumns } from '../../../src/core/terminal-columns.js';

describe('terminalColumns', () => {
  it('takes COLUMNS over what the terminal reports, when it is a sensible width', () => {
    expect(terminalColumns('132', 80)).toBe(132);
    expect(terminalColumns(' 90 ', undefined)).toBe(90);
  });

  it('keeps what the terminal reports for an unset, odd or tiny COLUMNS', () => {
    for (const value of [undefined, '', 'wide', '-5', '3', '1e9', '80px']) expect(terminalColumns(value, 80)).toBe(80);
  });
});
