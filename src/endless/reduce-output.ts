/**
 * The deterministic reduction: what the hook answers when the model is down, slow or talking
 * nonsense. Terminal noise stripped, repeated lines folded, the head and the tail kept, and from the
 * middle the lines that matter (errors and warnings; for file reads, the outline). Pure.
 */
import { stripTerminalNoise } from './strip-noise.js';

export type KeepLines = 'errors' | 'outline';

export interface ReduceOptions {
  /** Budget for the reduced body, in characters. */
  maxChars: number;
  keep: KeepLines;
  /** Longer lines are cut (default 400). */
  maxLineChars?: number;
}

export interface Reduction {
  text: string;
  originalLines: number;
  keptLines: number;
}

interface Entry {
  /** 1-based line number in the original text. */
  n: number;
  text: string;
}

export const DEFAULT_REDUCTION_CHARS = 2_400;

const ERROR_LINE =
  /\b(?:errors?|err!|warn(?:ing)?s?|fail(?:ed|ure|ures|s)?|fatal|panic(?:ked)?|exception|traceback|assert(?:ion)?(?:error)?|denied|refused|not found|cannot|can't|unable|segmentation fault|timed out|timeout)\b|[✗✘⨯❌]/i;
const OUTLINE_LINE =
  /^\s*(?:(?:export|pub(?:\(crate\))?|async|public|private|protected|static|default|abstract|final)\s+)*(?:function\*?|class|interface|type|enum|def|defp|defmodule|fn|struct|impl|trait|module|namespace|func|describe|it|test)\b|^\s*(?:export\s+)?const\s+\w+\s*=\s*(?:async\s*)?(?:\([^)]*\)|\w+)\s*=>|^#{1,6}\s/;

const CAT_N_PREFIX = /^\s*\d+→/;

export function reduceOutput(text: string, options: ReduceOptions): Reduction {
  const maxLine = options.maxLineChars ?? 400;
  const lines = stripTerminalNoise(text).split('\n');
  const entries = foldRepeatedLines(lines.map((line, i) => ({ n: i + 1, text: cutLine(line, maxLine) })));
  const size = (list: readonly Entry[]): number => list.reduce((sum, e) => sum + e.text.length + 1, 0);
  if (size(entries) <= options.maxChars) {
    return { text: entries.map((e) => e.text).join('\n'), originalLines: lines.length, keptLines: entries.length };
  }
  const head = takeWithin(entries, options.maxChars * 0.4);
  const tail = takeWithin([...entries].reverse(), options.maxChars * 0.4).reverse();
  const middle = entries.slice(head.length, entries.length - tail.length);
  const pattern = options.keep === 'errors' ? ERROR_LINE : OUTLINE_LINE;
  // A `cat -n` prefix (Read results in transcripts: `   12→code`) already carries the line number.
  const wanted = middle
    .filter((e) => pattern.test(e.text.replace(CAT_N_PREFIX, '')))
    .map((e) => ({ n: e.n, text: CAT_N_PREFIX.test(e.text) ? cutLine(e.text, 200) : `L${e.n}: ${cutLine(e.text.trim(), 200)}` }));
  const kept = takeWithin(wanted, options.maxChars * 0.2);
  const first = middle[0]?.n ?? 0;
  const last = middle[middle.length - 1]?.n ?? 0;
  const what = options.keep === 'errors' ? 'error/warning' : 'outline';
  const omitted = kept.length > 0
    ? `… [lines ${first}–${last} omitted; ${kept.length} ${what} line(s) from them below${wanted.length > kept.length ? `, ${wanted.length - kept.length} more in the full output` : ''}] …`
    : `… [lines ${first}–${last} omitted] …`;
  const body = [...head.map((e) => e.text), omitted, ...kept.map((e) => e.text), ...(kept.length > 0 ? ['… [end of kept lines] …'] : []), ...tail.map((e) => e.text)];
  return { text: body.join('\n'), originalLines: lines.length, keptLines: head.length + kept.length + tail.length };
}

/**
 * Identical consecutive lines become one line marked `[×N]`; a run of four or more lines that differ
 * only in numbers (test counters, timestamps, progress logs) keeps its first and last line.
 */
export function foldRepeatedLines<T extends Entry>(entries: readonly T[]): Entry[] {
  const out: Entry[] = [];
  let i = 0;
  while (i < entries.length) {
    const current = entries[i]!;
    let j = i + 1;
    while (j < entries.length && entries[j]!.text === current.text) j += 1;
    if (j - i > 1 && current.text.trim() !== '') {
      out.push({ n: current.n, text: `${current.text}  [×${j - i}]` });
      i = j;
      continue;
    }
    const shape = numberShape(current.text);
    let k = i + 1;
    while (k < entries.length && shape !== null && numberShape(entries[k]!.text) === shape) k += 1;
    if (k - i >= 4) {
      const lastEntry = entries[k - 1]!;
      out.push({ n: current.n, text: current.text });
      out.push({ n: current.n + 1, text: `… [${k - i - 2} similar lines, ${current.n + 1}–${lastEntry.n - 1}] …` });
      out.push({ n: lastEntry.n, text: lastEntry.text });
      i = k;
      continue;
    }
    out.push({ n: current.n, text: current.text });
    i += 1;
  }
  return out;
}

/** The line with its numbers blanked, or null when it has none (only numbered lines fold as similar). */
function numberShape(line: string): string | null {
  if (line.trim() === '' || !/\d/.test(line)) return null;
  return line.replace(/0x[0-9a-f]+|\d+(?:[.:,]\d+)*/gi, '#');
}

function takeWithin(entries: readonly Entry[], budget: number): Entry[] {
  const out: Entry[] = [];
  let used = 0;
  for (const entry of entries) {
    if (used + entry.text.length + 1 > budget && out.length > 0) break;
    out.push(entry);
    used += entry.text.length + 1;
    if (used > budget) break;
  }
  return out;
}

function cutLine(line: string, max: number): string {
  return line.length <= max ? line : `${line.slice(0, max)}… [+${line.length - max} chars]`;
}
