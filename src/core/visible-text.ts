/**
 * Characters a reader cannot see in stored text: control characters (escape sequences and the like) and
 * invisible or bidirectional code points (zero-width spaces, RTL overrides, tag characters, ...). One
 * table for every place recall shows a memory: the terminal (cli/terminal-safe.ts) and the page
 * (ui/visible-text.ts) each mark them in their own way, so what is shown is what is stored.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point.
const CONTROL = /[\u0000-\u0009\u000B-\u001F\u007F-\u009F]/;
/** Invisible and bidirectional code points, as [first, last] ranges. */
const INVISIBLE: ReadonlyArray<readonly [number, number]> = [
  [0x00ad, 0x00ad], [0x034f, 0x034f], [0x061c, 0x061c], [0x115f, 0x1160], [0x17b4, 0x17b5], [0x180b, 0x180e],
  [0x200b, 0x200f], [0x202a, 0x202e], [0x2060, 0x206f], [0x3164, 0x3164], [0xfe00, 0xfe0f], [0xfeff, 0xfeff],
  [0xffa0, 0xffa0], [0xfff0, 0xfff8], [0xe0000, 0xe0fff],
];
/** A quick test for text holding none of them: most text, which then needs no walk. */
// eslint-disable-next-line no-control-regex, no-misleading-character-class -- as above: single code points, combining marks among them.
const ANY_HIDDEN = /[\u0000-\u0009\u000B-\u001F\u007F-\u009F\u00AD\u034F\u061C\u115F\u1160\u17B4\u17B5\u180B-\u180E\u200B-\u200F\u202A-\u202E\u2060-\u206F\u3164\uFE00-\uFE0F\uFEFF\uFFA0\uFFF0-\uFFF8\u{E0000}-\u{E0FFF}]/u;

export function isInvisible(codePoint: number): boolean {
  return INVISIBLE.some(([first, last]) => codePoint >= first && codePoint <= last);
}

/** A run of plain text, or one hidden character with its code point and kind. */
export type TextPiece = { text: string } | { codePoint: number; kind: 'control' | 'invisible' };

/** `\u{202E}`: how both the terminal and the page spell a hidden character. */
export function codePointName(codePoint: number): string {
  return `\\u{${codePoint.toString(16).toUpperCase()}}`;
}

/** The text cut into plain runs and hidden characters; `keep` are control characters shown as they are (line breaks, say). */
export function splitHidden(text: string, keep: ReadonlySet<string> = new Set()): TextPiece[] {
  if (!ANY_HIDDEN.test(text)) return [{ text }];
  const pieces: TextPiece[] = [];
  let run = '';
  for (const ch of text) {
    const codePoint = ch.codePointAt(0)!;
    const kind = keep.has(ch) ? null : CONTROL.test(ch) ? 'control' : isInvisible(codePoint) ? 'invisible' : null;
    if (kind === null) {
      run += ch;
      continue;
    }
    if (run !== '') pieces.push({ text: run });
    run = '';
    pieces.push({ codePoint, kind });
  }
  if (run !== '') pieces.push({ text: run });
  return pieces;
}
