/**
 * Memory text is data from sessions, tool output and model answers: before it reaches a terminal, control
 * characters (escape sequences that could set the title, move the cursor or clear the screen) become `?`
 * and invisible or bidirectional characters are shown as `\u{...}`, so what is printed is what is stored.
 * Line breaks become spaces: one memory, one line.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point.
const CONTROL = /[\u0000-\u0009\u000B-\u001F\u007F-\u009F]/g;
/** Invisible and bidirectional code points, as [first, last] ranges. */
const INVISIBLE: ReadonlyArray<readonly [number, number]> = [
  [0x00ad, 0x00ad], [0x034f, 0x034f], [0x061c, 0x061c], [0x115f, 0x1160], [0x17b4, 0x17b5], [0x180b, 0x180e],
  [0x200b, 0x200f], [0x202a, 0x202e], [0x2060, 0x206f], [0x3164, 0x3164], [0xfe00, 0xfe0f], [0xfeff, 0xfeff],
  [0xffa0, 0xffa0], [0xfff0, 0xfff8], [0xe0000, 0xe0fff],
];

function isInvisible(codePoint: number): boolean {
  return INVISIBLE.some(([first, last]) => codePoint >= first && codePoint <= last);
}

export function terminalSafe(text: string): string {
  let out = '';
  for (const ch of text.replace(/\r\n|\r|\n/g, ' ').replace(CONTROL, '?')) {
    const codePoint = ch.codePointAt(0)!;
    out += isInvisible(codePoint) ? `\\u{${codePoint.toString(16).toUpperCase()}}` : ch;
  }
  return out;
}
