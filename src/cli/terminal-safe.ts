/**
 * Memory text is data from sessions, tool output and model answers: before it reaches a terminal, control
 * characters (escape sequences that could set the title, move the cursor or clear the screen) become `?`
 * and invisible or bidirectional characters are shown as `\u{...}` (core/visible-text.ts, the table the
 * page uses too), so what is printed is what is stored. Line breaks become spaces: one memory, one line.
 */
import { codePointName, splitHidden } from '../core/visible-text.js';

export function terminalSafe(text: string): string {
  return splitHidden(text.replace(/\r\n|\r|\n/g, ' '))
    .map((piece) => ('text' in piece ? piece.text : piece.kind === 'control' ? '?' : codePointName(piece.codePoint)))
    .join('');
}
