/**
 * Removes injected context and client noise from one block of transcript text (a message's text,
 * a tool result). Pure; linear in the length of the text.
 */
import { RECALL_CONTEXT_CLOSE_TAG, RECALL_CONTEXT_OPEN_TAG } from './recall-markers.js';

type Unclosed = 'drop-rest' | 'keep-rest';

/** Tag name without brackets, e.g. `recall-context` from `<recall-context>`. */
function tagName(openTag: string): string {
  return openTag.slice(1, -1);
}

/**
 * Replaces every `<name ...>inner</name>` span with `replace(inner)`. An opening tag without a
 * closing one either drops the rest of the block (injected context must never leak back, even when
 * a client cut it short) or keeps it (harmless wrappers). Stray closing tags are removed.
 */
function replaceSpans(text: string, name: string, replace: (inner: string) => string, unclosed: Unclosed): string {
  if (!text.includes(`<${name}`)) return text.split(`</${name}>`).join('');
  const open = new RegExp(`<${name}(?:\\s[^<>]*)?>`, 'g');
  const close = `</${name}>`;
  let out = '';
  let pos = 0;
  for (let m = open.exec(text); m !== null; m = open.exec(text)) {
    const innerStart = m.index + m[0].length;
    const end = matchingClose(text, innerStart, name, close);
    out += text.slice(pos, m.index);
    if (end === -1) {
      pos = unclosed === 'drop-rest' ? text.length : innerStart;
      break;
    }
    out += replace(text.slice(innerStart, end));
    pos = end + close.length;
    open.lastIndex = pos;
  }
  out += text.slice(pos);
  return out.split(close).join('');
}

/** Index of the closing tag that balances an opening one (spans may nest), or -1. Linear. */
function matchingClose(text: string, from: number, name: string, close: string): number {
  const open = new RegExp(`<${name}(?:\\s[^<>]*)?>`, 'g');
  let depth = 1;
  let pos = from;
  for (;;) {
    const end = text.indexOf(close, pos);
    if (end === -1) return -1;
    open.lastIndex = pos;
    const nested = open.exec(text);
    if (nested !== null && nested.index < end) {
      depth += 1;
      pos = nested.index + nested[0].length;
      continue;
    }
    depth -= 1;
    if (depth === 0) return end;
    pos = end + close.length;
  }
}

const drop = (): string => '';
const unwrap = (inner: string): string => inner;

/** Spans whose content is never the user's or the model's own words. */
const DROPPED_SPANS: readonly string[] = [
  'system-reminder',
  tagName(RECALL_CONTEXT_OPEN_TAG),
  'local-command-stdout',
  'local-command-stderr',
  'local-command-caveat',
  'command-message',
  // Gemini CLI puts SessionStart and BeforeAgent hook context into the user's prompt in this tag.
  'hook_context',
];

/** Slash-command wrappers: keep the command and its arguments, drop the tags. */
const UNWRAPPED_SPANS: readonly string[] = ['command-name', 'command-args'];

// Terminal colour and cursor sequences (ESC [ ... final byte) carry no meaning once written down.
// eslint-disable-next-line no-control-regex -- matching the ESC control character is the point
const ANSI_ESCAPE = /\u001b\[[0-9;?]*[ -/]*[@-~]/g;

/** Background-task notices Claude Code posts as user messages; nobody typed them. */
const TASK_NOTIFICATION = /^\s*<task-notification>/;

export function cleanTranscriptText(text: string): string {
  if (TASK_NOTIFICATION.test(text)) return '';
  let out = text;
  // Most tool output holds no tag at all: one search instead of a dozen.
  if (out.includes('<')) {
    for (const name of DROPPED_SPANS) out = replaceSpans(out, name, drop, 'drop-rest');
    // The recall tags are constants shared with the hook: make sure a stray closing tag goes too.
    out = out.split(RECALL_CONTEXT_CLOSE_TAG).join('');
    for (const name of UNWRAPPED_SPANS) out = replaceSpans(out, name, unwrap, 'keep-rest');
  }
  if (out.includes('\u001b')) out = out.replace(ANSI_ESCAPE, '');
  return normaliseWhitespace(out);
}

/** CRLF to LF, no trailing spaces on lines, at most one blank line in a row, trimmed. */
export function normaliseWhitespace(text: string): string {
  let out = text.includes('\r') ? text.replace(/\r\n?/g, '\n') : text;
  // Split and trim rather than /[ \t]+\n/: that regex is quadratic on a long run of spaces.
  // Most text has no trailing spaces at all, and finding that out is cheaper than splitting it.
  if (hasTrailingWhitespace(out)) {
    out = out
      .split('\n')
      .map((line) => line.trimEnd())
      .join('\n');
  }
  // A search for the literal is far cheaper than the expression over text that has no such run.
  return (out.includes('\n\n\n') ? out.replace(/\n{3,}/g, '\n\n') : out).trim();
}

/** True when a line of `text` ends in whitespace that `trimEnd` would remove. */
function hasTrailingWhitespace(text: string): boolean {
  for (let nl = text.indexOf('\n'); nl !== -1; nl = text.indexOf('\n', nl + 1)) {
    if (nl > 0 && isWhitespace(text.charCodeAt(nl - 1))) return true;
  }
  return text.length > 0 && isWhitespace(text.charCodeAt(text.length - 1));
}

/** What `trimEnd` removes and `\s` matches, besides the line feed itself: tab, vertical tab, form feed, CR, space, Unicode spaces. */
function isWhitespace(code: number): boolean {
  if (code < 128) return code === 32 || code === 9 || code === 11 || code === 12 || code === 13;
  return /\s/.test(String.fromCharCode(code));
}
