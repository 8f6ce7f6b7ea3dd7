import { describe, expect, it } from 'vitest';
import { detectJsonFormat, formatJson, parseJsonText } from '../../../src/install/json-format.js';

const value = { model: 'opus', hooks: { SessionEnd: [{ hooks: [{ type: 'command', command: 'echo "a\nb"' }] }] }, n: 3 };

describe('settings file formatting', () => {
  it.each([
    ['two spaces and a final newline', `${JSON.stringify(value, null, 2)}\n`],
    ['four spaces without a final newline', JSON.stringify(value, null, 4)],
    ['tabs', `${JSON.stringify(value, null, '\t')}\n`],
    ['CRLF line endings', `${JSON.stringify(value, null, 2).replace(/\n/g, '\r\n')}\r\n`],
    ['a byte-order mark', `\uFEFF${JSON.stringify(value, null, 2)}\n`],
  ])('writes back a file formatted with %s byte for byte', (_name, text) => {
    expect(formatJson(parseJsonText(text), detectJsonFormat(text))).toBe(text);
  });

  it('writes `{}` back as `{}`', () => {
    expect(formatJson(parseJsonText('{}'), detectJsonFormat('{}'))).toBe('{}');
  });

  it('uses two spaces and a final newline for a new or blank file', () => {
    expect(formatJson({ a: 1 }, detectJsonFormat(''))).toBe('{\n  "a": 1\n}\n');
  });

  it('reads a blank file as an empty object and refuses text that is not JSON', () => {
    expect(parseJsonText('  \n')).toEqual({});
    expect(() => parseJsonText('{ "a": 1, }')).toThrow(SyntaxError);
  });
});
