/**
 * Keeps a settings file's own formatting when recall re-serialises it: indentation (spaces or
 * tabs, any width), line endings, final newline and byte-order mark. Pure.
 *
 * A file written as `JSON.stringify(value, null, indent)` (what Claude Code and most editors
 * produce) comes back byte for byte; number spellings such as `1.0` or `1e3`, `\u00e9` escapes
 * and irregular whitespace do not survive a parse, and are written in JSON.stringify's form.
 */

export interface JsonFormat {
  indent: string;
  eol: '\n' | '\r\n';
  finalNewline: boolean;
  bom: boolean;
}

export const DEFAULT_JSON_FORMAT: JsonFormat = { indent: '  ', eol: '\n', finalNewline: true, bom: false };

export function detectJsonFormat(text: string): JsonFormat {
  const bom = text.startsWith('\uFEFF');
  const body = bom ? text.slice(1) : text;
  const indent = /^([ \t]+)\S/m.exec(body)?.[1] ?? DEFAULT_JSON_FORMAT.indent;
  return {
    indent,
    eol: body.includes('\r\n') ? '\r\n' : '\n',
    finalNewline: body.trim() === '' ? DEFAULT_JSON_FORMAT.finalNewline : /\n$/.test(body),
    bom,
  };
}

/** JSON.stringify only emits raw newlines between tokens (inside strings they are escaped), so the swap is safe. */
export function formatJson(value: unknown, format: JsonFormat): string {
  const json = JSON.stringify(value, null, format.indent);
  const lines = format.eol === '\n' ? json : json.replace(/\n/g, '\r\n');
  return `${format.bom ? '\uFEFF' : ''}${lines}${format.finalNewline ? format.eol : ''}`;
}

/** Parses settings text; blank text is an empty object. Throws SyntaxError for anything else that is not JSON. */
export function parseJsonText(text: string): unknown {
  const body = text.startsWith('\uFEFF') ? text.slice(1) : text;
  return body.trim() === '' ? {} : (JSON.parse(body) as unknown);
}
