/**
 * Tells what the user typed from what they pasted into a message: logs, diffs, stack traces, code, data and
 * documents (a review, an email) are found by their shape and kept apart, so no pasted text is ever presented
 * as the user's own words. Pure; linear in the length of the message.
 */
import { cutText } from './cut-text.js';
import type { PastedBlock } from './session-events.js';
import { LIMITS } from './transcript-limits.js';

export interface SplitMessage {
  /** The user's own words, with a short placeholder where each pasted block stood. */
  typed: string;
  pasted: PastedBlock[];
}

type LineKind = Exclude<PastedBlock['kind'], 'document' | 'quote'> | 'prose';

const LOG_LINE = /^\s*(?:\[?\d{4}-\d\d-\d\d[T ]\d\d:\d\d|\[?\d\d:\d\d:\d\d|\[?(?:INFO|WARN|WARNING|ERROR|DEBUG|TRACE|FATAL|NOTICE)\b\]?|npm (?:ERR!|WARN)|\s*(?:✓|✗|×|√|PASS|FAIL)\s|\S+\.\w+[:(]\d+[:,]\d*\)?:? (?:error|warning)\b|error(?:\[E\d+\])?:|warning:)/;
const STACK_LINE = /^\s*(?:at\s+\S.*(?::\d+(?::\d+)?\)?|\(native\)|<anonymous>\)?)$|Traceback \(most recent call last\)|File ".*", line \d+|#\d+\s+0x[0-9a-f]+|[\w.$]*(?:Error|Exception|Panic)(?::|\s*\[|$)|thread '.*' panicked at|Caused by:|\.\.\. \d+ more$)/;
const DIFF_LINE = /^(?:diff --git |index [0-9a-f]{6,}\.\.|--- (?:a\/|\/dev\/null)|\+\+\+ (?:b\/|\/dev\/null)|@@ -\d+(?:,\d+)? \+\d+)/;
const DIFF_BODY = /^[+-](?![+-]{2})\S?/;
const DATA_LINE = /^\s*(?:[{}[\]],?|"[^"]{1,80}"\s*:|<\/?[a-zA-Z][\w:-]*(?:\s[^>]*)?>\s*$|[\w.-]+\s*=\s*\S+$|\S{120,}$)/;
const CODE_LINE = /^\s*(?:(?:export |async |public |private |static )*(?:function|const|let|var|class|def|fn|func|import|from \S+ import|return|if \(|for \(|while \(|#include|package |use |impl |struct |interface |type \w+ =)\b|.*[;{}]\s*$|\/\/|#\s|\*\s|\)\s*=>)/;
const HEADING = /^\s{0,3}#{1,6}\s+\S/;
const BULLET = /^\s*(?:[-*+]|\d{1,3}[.)])\s+\S/;
const QUOTE = /^\s*>/;

function lineKind(line: string, inDiff: boolean): LineKind {
  if (DIFF_LINE.test(line) || (inDiff && DIFF_BODY.test(line))) return 'diff';
  if (STACK_LINE.test(line)) return 'stack trace';
  if (LOG_LINE.test(line)) return 'log';
  if (DATA_LINE.test(line)) return 'data';
  if (CODE_LINE.test(line) && !/^[A-Z][a-z]+(?: [a-z]+){3,}/.test(line.trim())) return 'code';
  return 'prose';
}

/** The block's kind when most of its lines are machine-made; undefined for prose. */
function machineKind(lines: readonly string[]): PastedBlock['kind'] | undefined {
  const counts = new Map<LineKind, number>();
  let inDiff = false;
  let machine = 0;
  for (const line of lines) {
    const kind = lineKind(line, inDiff);
    inDiff = kind === 'diff' || (inDiff && line.trim() !== '');
    counts.set(kind, (counts.get(kind) ?? 0) + 1);
    if (kind !== 'prose') machine += 1;
  }
  const single = lines.length === 1 && (lines[0]?.length ?? 0) > 200 && !/\s\S+\s\S+\s/.test(lines[0] ?? '');
  if (!single && (lines.length < 2 || machine / lines.length < 0.6)) return undefined;
  let best: PastedBlock['kind'] = 'data';
  let bestCount = 0;
  for (const [kind, count] of counts) {
    if (kind !== 'prose' && count > bestCount) [best, bestCount] = [kind, count];
  }
  return best;
}

interface Segment {
  text: string;
  pasted?: PastedBlock['kind'];
}

/** Fenced code blocks, then paragraphs (split at blank lines). */
function segments(text: string): Segment[] {
  const out: Segment[] = [];
  const fence = /^[ \t]*(```|~~~)[^\n]*\n([\s\S]*?)(?:^[ \t]*\1[ \t]*$|(?![\s\S]))/gm;
  let pos = 0;
  for (let m = fence.exec(text); m !== null; m = fence.exec(text)) {
    out.push(...paragraphs(text.slice(pos, m.index)));
    const body = (m[2] ?? '').replace(/\n$/, '');
    if (body.trim() !== '') out.push({ text: body, pasted: machineKind(body.split('\n')) ?? 'code' });
    pos = m.index + m[0].length;
    if (m[0].length === 0) fence.lastIndex += 1;
  }
  out.push(...paragraphs(text.slice(pos)));
  return out;
}

function paragraphs(text: string): Segment[] {
  return text
    .split(/\n[ \t]*\n/)
    .filter((p) => p.trim() !== '')
    .flatMap((p) => {
      const lines = p.split('\n');
      const kind = machineKind(lines);
      return kind === undefined ? [{ text: p }] : peelProse(lines, kind);
    });
}

/** A machine-made paragraph with the user's own lines around it ("Getting this:", "any idea?") split off. */
function peelProse(lines: readonly string[], kind: PastedBlock['kind']): Segment[] {
  let start = 0;
  let end = lines.length;
  while (start < end - 1 && lineKind(lines[start] ?? '', false) === 'prose') start += 1;
  while (end > start + 1 && lineKind(lines[end - 1] ?? '', false) === 'prose') end -= 1;
  const out: Segment[] = [];
  if (start > 0) out.push({ text: lines.slice(0, start).join('\n') });
  out.push({ text: lines.slice(start, end).join('\n'), pasted: kind });
  if (end < lines.length) out.push({ text: lines.slice(end).join('\n') });
  return out;
}

/** A region of markdown structure (a heading followed by bullets and paragraphs) long enough to be a pasted document. */
const DOCUMENT_MIN_CHARS = 600;
const DOCUMENT_MIN_LINES = 8;

function markDocuments(parts: Segment[]): Segment[] {
  const start = parts.findIndex((p) => p.pasted === undefined && HEADING.test(p.text));
  if (start === -1) return markQuotes(parts);
  let end = start;
  let chars = 0;
  let lines = 0;
  for (let i = start; i < parts.length; i += 1) {
    const part = parts[i] as Segment;
    const structured = part.pasted !== undefined || part.text.split('\n').some((l) => HEADING.test(l) || BULLET.test(l));
    if (!structured && i > start && i === parts.length - 1) break; // the user's closing question
    chars += part.text.length;
    lines += part.text.split('\n').length;
    end = i;
  }
  if (chars < DOCUMENT_MIN_CHARS || lines < DOCUMENT_MIN_LINES) return markQuotes(parts);
  const document: Segment = { text: parts.slice(start, end + 1).map((p) => p.text).join('\n\n'), pasted: 'document' };
  return markQuotes([...parts.slice(0, start), document, ...parts.slice(end + 1)]);
}

function markQuotes(parts: Segment[]): Segment[] {
  return parts.map((p) => {
    if (p.pasted !== undefined) return p;
    const lines = p.text.split('\n');
    return lines.length >= 3 && lines.every((l) => QUOTE.test(l)) ? { text: p.text, pasted: 'quote' } : p;
  });
}

/** The line that says most about a log or a trace (the first naming an error), else undefined. */
function tellingLine(text: string): string | undefined {
  const line = text.split('\n').find((l) => /\b(?:error|fail(?:ed|ure)?|exception|panic(?:ked)?|fatal)\b/i.test(l));
  return line?.trim();
}

function excerptOf(kind: PastedBlock['kind'], text: string): string {
  const max = LIMITS.pastedExcerpt;
  const telling = kind === 'log' || kind === 'stack trace' ? tellingLine(text) : undefined;
  const flat = text.replace(/\s*\n\s*/g, ' | ');
  if (telling === undefined || flat.length <= max) return cutText(flat, max);
  return cutText(telling, max, 1);
}

export function splitPasted(text: string): SplitMessage {
  if (!text.includes('\n') && text.length <= 200) return { typed: text, pasted: [] };
  const parts = markDocuments(segments(text));
  if (parts.every((part) => part.pasted === undefined)) return { typed: text, pasted: [] };
  const typed: string[] = [];
  const pasted: PastedBlock[] = [];
  for (const part of parts) {
    if (part.pasted === undefined) {
      typed.push(part.text);
      continue;
    }
    const lines = part.text.split('\n').length;
    pasted.push({ kind: part.pasted, lines, chars: part.text.length, excerpt: excerptOf(part.pasted, part.text) });
    typed.push(`[pasted ${part.pasted} #${pasted.length}]`);
  }
  return { typed: typed.join('\n'), pasted };
}
