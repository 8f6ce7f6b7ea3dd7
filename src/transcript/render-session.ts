/**
 * Renders a session for the extraction model within a character budget, choosing what to show by what it is
 * worth. First the session's conclusion (the assistant's last words, and its last words after work, if those
 * differ) and the user's last message, whole; then every typed user message (cut per message when many
 * compete); then Claude Code's compaction summary, what went wrong (failed, reverted, abandoned and rejected
 * work) and the assistant's conclusions of each turn; then what passed and was committed, what the user pasted
 * and the rest of the assistant's prose; then tool calls with their output snippets, newest first; narration
 * that only announces a next step comes last, shortened. Before a compaction, the summary stands for the
 * assistant's and the tools' turns, so those come late. What is shown keeps the session's order, with one
 * marker per run of left-out events; tool output and pasted text are labelled as such. Pure.
 */
import { cutText, formatCount } from './cut-text.js';
import { userLabel, assistantLabel, outcomeLabel, pastedHead } from './entry-labels.js';
import { mergeGaps, planRender, routineEntries, userCap, wholeEntries } from './plan-render.js';
import type { Step } from './plan-render.js';
import { leastLength, length, outputChars } from './render-pieces.js';
import type { Piece, PieceKind, Variants } from './render-pieces.js';
import type { SessionEntry } from './session-events.js';
import { LIMITS } from './transcript-limits.js';

export type { PieceKind } from './render-pieces.js';

export interface RenderStats {
  /** Messages the user typed, and how many of them the text shows. */
  typedMessages: number;
  typedMessagesShown: number;
  entries: number;
  entriesShown: number;
  /** How long the text would be with every entry shown in full. */
  fullChars: number;
  /**
   * Characters of the text by what they show. `labels` are what recall adds (a message's stance, an outcome, a
   * pasted block's heading); `markers` the "events left out" lines; `notes` separators and other notes.
   */
  chars: Record<PieceKind, number>;
  /** How much of the assistant's last words the text keeps, or null when the assistant said nothing. */
  conclusion: { fullChars: number; keptChars: number; keptShare: number } | null;
  /** Markers of left-out events in the text. */
  markers: number;
}

export interface RenderedSession {
  text: string;
  stats: RenderStats;
}

/** Keeps text from closing the prompt's own `<transcript>` block. */
function neutralise(text: string): string {
  return text.includes('<') ? text.replace(/<(\/?\s*transcript)/gi, '‹$1') : text;
}

function indent(text: string, pad: string): string {
  const safe = neutralise(text);
  return safe.includes('\n') ? safe.split('\n').join(`\n${pad}`) : safe;
}

/** A turn's conclusion when room is short, before it gets its full `assistantFinal`. */
const SHORT_CONCLUSION = 300;

interface Context {
  userCap: number;
  /** Entries kept whole, with the most each may take. */
  whole: ReadonlyMap<number, number>;
}

function userVariants(entry: SessionEntry & { kind: 'user' }, cap: number): Variants {
  const label = userLabel(entry);
  const words: Piece[] = [
    { kind: 'user', text: '\nUser' },
    ...(label === '' ? [] : [{ kind: 'labels' as const, text: ` (${label})` }]),
    { kind: 'user', text: `: ${indent(cutText(entry.text, cap), '  ')}` },
  ];
  if (entry.pasted.length === 0) return [words];
  const heads = entry.pasted.map((p, i) => ({ kind: 'labels' as const, text: `\n  ${pastedHead(p, i)}` }));
  return [
    [...words, ...heads],
    [...words, ...entry.pasted.flatMap((p, i) => [heads[i] as Piece, { kind: 'pasted' as const, text: ` ${indent(p.excerpt, '    ')}` }])],
  ];
}

function assistantVariants(entry: SessionEntry & { kind: 'assistant' }, whole: number | undefined): Variants {
  const label = assistantLabel(entry);
  const show = (max: number): Piece[] => [
    { kind: 'assistant', text: 'Assistant' },
    ...(label === '' ? [] : [{ kind: 'labels' as const, text: ` (${label})` }]),
    { kind: 'assistant', text: `: ${indent(cutText(entry.text, max), '  ')}` },
  ];
  if (whole !== undefined) return [show(whole)];
  if (entry.narration === true) return [show(LIMITS.narration)];
  if (entry.final) return [show(SHORT_CONCLUSION), show(LIMITS.assistantFinal)];
  return [show(LIMITS.assistantText)];
}

/**
 * Tools that only read (files, searches, pages): what they returned is the codebase or a third party's text,
 * never a finding of the session, so only the call is shown unless the call failed.
 */
const READING_TOOLS = /^(?:read|view|cat|grep|glob|ls|list_?dir|find|search|notebookread|webfetch|websearch|fetchurl|fetch|read_?file|list_?files|codebase_search|file_search)$/i;

function toolVariants(entry: SessionEntry & { kind: 'tool' }): Variants {
  const call: Piece[] = [{ kind: 'toolCalls', text: `  ${neutralise(entry.summary)}` }];
  if (entry.outcome !== undefined) call.push({ kind: 'labels', text: ` → ${outcomeLabel(entry.outcome, entry.detail)}` });
  const output = entry.output;
  if (output === undefined || output.empty) return [call];
  if (READING_TOOLS.test(entry.name) && entry.outcome === undefined) return [call];
  const tag = entry.byUser === true ? '[shell output]' : '[tool output]';
  // Made when first measured or shown: most snippets are neither, and making one redacts it (tool-output.ts).
  let text: string | undefined;
  const head = `\n  ${tag} `;
  const snippet = {
    kind: 'toolOutput' as const,
    // The snippet is never empty, and indenting it only adds.
    least: head.length + 1,
    get text(): string {
      return (text ??= `${head}${indent(output.text, '    ')}`);
    },
  };
  return [call, [...call, snippet]];
}

function variantsOf(entry: SessionEntry, i: number, ctx: Context): Variants {
  switch (entry.kind) {
    case 'user':
      return userVariants(entry, ctx.whole.get(i) ?? ctx.userCap);
    case 'interrupt':
      return [[{ kind: 'notes', text: '[The user interrupted the assistant.]' }]];
    case 'assistant':
      return assistantVariants(entry, ctx.whole.get(i));
    case 'tool':
      return toolVariants(entry);
    case 'compaction':
      return [[{ kind: 'summary', text: `\n[Summary of the session before this point, written by the agent when the conversation was compacted:]\n  ${indent(entry.text, '  ')}` }]];
    case 'subagent':
      return [[{ kind: 'toolCalls', text: `  [subagent, ${entry.turns} turn${entry.turns === 1 ? '' : 's'}] task: ${indent(entry.task || '(none)', '    ')} | answer: ${indent(entry.result || '(none)', '    ')}` }]];
  }
}

/**
 * At most this share of the budget goes to tool output snippets: a local model reads every character of the
 * prompt (tens of seconds per few thousand tokens on a CPU), and output is the least telling part.
 */
const TOOL_OUTPUT_SHARE = 0.3;

function gapMarker(count: number): string {
  return `[… ${formatCount(count)} event${count === 1 ? '' : 's'} left out …]`;
}

export function renderSession(entries: readonly SessionEntry[], maxChars: number): RenderedSession {
  const whole = wholeEntries(entries, maxChars);
  const ctx: Context = { userCap: userCap(entries, maxChars), whole };
  const variants = entries.map((entry, i) => variantsOf(entry, i, ctx));
  const levels = new Array<number>(entries.length).fill(-1);
  const routine = routineEntries(entries);
  const steps = planRender(entries, variants, whole, routine);
  // Spend, leave out the short minor runs left between gaps so their markers merge, then spend what that freed
  // (never on what was just left out).
  const dropped = new Set<number>();
  spend(steps, variants, levels, dropped, maxChars);
  for (const i of mergeGaps(entries, variants, levels, routine)) dropped.add(i);
  spend(steps, variants, levels, dropped, maxChars);
  return assemble(entries, variants, levels, maxChars);
}

/** Raises entries to the variants the steps name, in order, while the budget lasts. */
function spend(steps: readonly Step[], variants: readonly Variants[], levels: number[], dropped: ReadonlySet<number>, maxChars: number): void {
  // Each entry shown can add at most one marker (it may split a gap in two) and one separator; the first
  // entry shown can leave a gap on both sides.
  const perEntry = gapMarker(levels.length).length + 2;
  let left = maxChars - perEntry;
  let outputLeft = Math.floor(maxChars * TOOL_OUTPUT_SHARE);
  levels.forEach((level, i) => {
    if (level === -1) return;
    const shown = variants[i]?.[level] ?? [];
    left -= length(shown) + perEntry;
    outputLeft -= outputChars(shown);
  });
  for (const step of steps) {
    if (dropped.has(step.entry)) continue;
    const current = levels[step.entry] as number;
    if (current >= step.level) continue;
    // Minor entries only extend what is shown: each one alone would cost a marker on either side.
    if (step.contiguous === true && current === -1 && levels[step.entry - 1] === -1 && levels[step.entry + 1] === -1) continue;
    // An entry not yet shown costs its separator and marker room at least: no need to measure it when that is too much.
    if (current === -1 && perEntry > left) continue;
    const wanted = variants[step.entry]?.[step.level] ?? [];
    const had = current === -1 ? [] : (variants[step.entry]?.[current] ?? []);
    const base = (current === -1 ? perEntry : 0) - length(had);
    // What is sure not to fit is not measured: a tool output's snippet would be made (and redacted) to measure it.
    if (leastLength(wanted) + base > left) continue;
    const cost = length(wanted) + base;
    if (cost > left) continue;
    const output = outputChars(wanted) - outputChars(had);
    if (output > outputLeft) continue;
    levels[step.entry] = step.level;
    left -= cost;
    outputLeft -= output;
  }
}

const OMITTED = / \[…[\d,]+ chars…\] /g;

function conclusionStats(entries: readonly SessionEntry[], variants: readonly Variants[], levels: readonly number[]): RenderStats['conclusion'] {
  const i = entries.map((e) => e.kind).lastIndexOf('assistant');
  const entry = entries[i];
  if (entry?.kind !== 'assistant') return null;
  const level = levels[i] as number;
  const shown = level === -1 ? '' : (variants[i]?.[level] ?? []).filter((p) => p.kind === 'assistant').map((p) => p.text).join('').replace(/^Assistant: /, '');
  const keptChars = Math.min(entry.fullChars, shown.replace(OMITTED, '').replace(/\n {2}/g, '\n').length);
  return { fullChars: entry.fullChars, keptChars, keptShare: entry.fullChars === 0 ? 1 : Math.round((1000 * keptChars) / entry.fullChars) / 1000 };
}

function assemble(entries: readonly SessionEntry[], variants: readonly Variants[], levels: readonly number[], maxChars: number): RenderedSession {
  const chars: Record<PieceKind, number> = { user: 0, pasted: 0, assistant: 0, toolCalls: 0, toolOutput: 0, summary: 0, labels: 0, markers: 0, notes: 0 };
  const blocks: string[] = [];
  let gap = 0;
  let shown = 0;
  let typedShown = 0;
  let markers = 0;
  const marker = (count: number): void => {
    const text = gapMarker(count);
    blocks.push(text);
    chars.markers += text.length;
    markers += 1;
  };
  entries.forEach((entry, i) => {
    const level = levels[i] as number;
    if (level === -1) {
      gap += 1;
      return;
    }
    if (gap > 0) marker(gap);
    gap = 0;
    shown += 1;
    if (entry.kind === 'user') typedShown += 1;
    const pieces = variants[i]?.[level] ?? [];
    for (const piece of pieces) chars[piece.kind] += piece.text.length;
    blocks.push(pieces.map((p) => p.text).join(''));
  });
  if (gap > 0 && shown > 0) marker(gap);
  chars.notes += Math.max(0, blocks.length - 1);
  let text = blocks.join('\n');
  const leading = text.length - text.replace(/^\n+/, '').length;
  text = text.slice(leading);
  chars.user -= Math.min(chars.user, leading);
  // The plan leaves room for every marker and separator; this only guards the arithmetic.
  if (text.length > maxChars) text = cutText(text, maxChars);
  // Summed when first asked for: it measures every tool output's snippet, which the prompt does not need.
  let fullChars: number | undefined;
  return {
    text,
    stats: {
      typedMessages: entries.filter((e) => e.kind === 'user').length,
      typedMessagesShown: typedShown,
      entries: entries.length,
      entriesShown: shown,
      get fullChars(): number {
        return (fullChars ??= variants.reduce((n, v) => n + length(v[v.length - 1] ?? []) + 1, 0));
      },
      chars,
      conclusion: conclusionStats(entries, variants, levels),
      markers,
    },
  };
}
