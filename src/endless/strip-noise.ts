/**
 * Terminal noise that carries no meaning once written down: colour and cursor escapes, carriage
 * return redraws, backspace overstrikes, spinners and progress bars. Pure; linear in the text.
 */

/* eslint-disable no-control-regex -- matching terminal control characters is the point */
const OSC = /\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)/g;
const CSI = /\u001b\[[0-9;?]*[ -/]*[@-~]/g;
const OTHER_ESCAPE = /\u001b[@-Z\\-_]/g;
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f]/g;
/* eslint-enable no-control-regex */

const SPINNER_ONLY = /^[\s\u2800-\u28ff◐◓◑◒⣾⣽⣻⢿⡿⣟⣯⣷|/\\]+$/;
const BLOCK_BAR = /[█▉▊▋▌▍▎▏▓▒░■□]{3,}/;
const ASCII_BAR = /\[[=#>\-.\s]{5,}\]|[=#]{8,}>?/;
const PERCENT = /\b\d{1,3}(?:\.\d+)?\s?%/;
const PERCENT_ONLY = /^\s*\d{1,3}(?:\.\d+)?\s?%\s*$/;

export function stripTerminalNoise(text: string): string {
  let out = text.replace(/\r\n/g, '\n').replace(OSC, '').replace(CSI, '').replace(OTHER_ESCAPE, '');
  if (out.includes('\b')) out = applyBackspaces(out);
  const lines: string[] = [];
  let blank = 0;
  for (const raw of out.split('\n')) {
    const line = lastRedraw(raw).replace(CONTROL, '').trimEnd();
    if (line !== '' && isProgressLine(line)) continue;
    blank = line === '' ? blank + 1 : 0;
    if (blank > 1) continue;
    lines.push(line);
  }
  while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  while (lines.length > 0 && lines[0] === '') lines.shift();
  return lines.join('\n');
}

/** A spinner frame, a bare percentage, or a bar (block characters, or `[=====>   ]` with a percentage). */
export function isProgressLine(line: string): boolean {
  if (SPINNER_ONLY.test(line) && /[\u2800-\u28ff◐◓◑◒]/.test(line)) return true;
  if (PERCENT_ONLY.test(line)) return true;
  if (BLOCK_BAR.test(line)) return true;
  return ASCII_BAR.test(line) && PERCENT.test(line);
}

/** What a terminal shows after `\r` redraws: the last non-empty segment. */
function lastRedraw(line: string): string {
  if (!line.includes('\r')) return line;
  const parts = line.split('\r').filter((part) => part.trim() !== '');
  return parts[parts.length - 1] ?? '';
}

/** `a\bb` shows `b`: each backspace removes the character before it on the same line. */
function applyBackspaces(text: string): string {
  const out: string[] = [];
  for (const ch of text) {
    if (ch === '\b') {
      if (out.length > 0 && out[out.length - 1] !== '\n') out.pop();
    } else out.push(ch);
  }
  return out.join('');
}
