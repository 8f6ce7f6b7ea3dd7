/**
 * Renders a session for the extraction model within a character budget, choosing what to show by what it is
 * worth: every typed user message first (cut per message when many compete), then the assistant's
 * conclusions, Claude Code's compaction summary and what tool calls came to (failed, passed, committed,
 * reverted), then what the user pasted and the rest of the assistant's prose, then tool calls with their
 * output snippets, newest first. Before a compaction, the summary stands for the assistant's and the
 * tools' turns, so those come last. What is shown keeps the session's order, with a marker where events were
 * left out; tool output and pasted text are labelled as such. Pure.
 */
import { cutText, formatCount } from './cut-text.js';
import type { SessionEntry } from './session-events.js';
import { LIMITS } from './transcript-limits.js';

export interface RenderStats {
  /** Messages the user typed, and how many of them the text shows. */
  typedMessages: number;
  typedMessagesShown: number;
  entries: number;
  entriesShown: number;
  /** How long the text would be with every entry shown in full. */
  fullChars: number;
  /** Characters of the text by what they show (labels included; separators and markers under `notes`). */
  chars: Record<PieceKind, number>;
}

export interface RenderedSession {
  text: string;
  stats: RenderStats;
}

type PieceKind = 'user' | 'pasted' | 'assistant' | 'toolCalls' | 'toolOutput' | 'summary' | 'notes';
interface Piece {
  kind: PieceKind;
  text: string;
}

/** The ways one entry can be shown, smallest first. */
type Variants = Piece[][];

const OUTCOME_LABEL = {
  failed: 'FAILED',
  passed: 'passed',
  committed: 'committed',
  reverted: 'REVERTED',
  rejected: 'REJECTED',
} as const;

/** Keeps text from closing the prompt's own `<transcript>` block. */
function neutralise(text: string): string {
  return text.includes('<') ? text.replace(/<(\/?\s*transcript)/gi, '‹$1') : text;
}

function indent(text: string, pad: string): string {
  return neutralise(text).split('\n').join(`\n${pad}`);
}

function userVariants(entry: SessionEntry & { kind: 'user' }, cap: number): Variants {
  const notes = [entry.command, entry.reaction === 'corrects' ? 'corrects the assistant' : entry.reaction === 'agrees' ? 'agrees' : undefined].filter((n) => n !== undefined);
  const label = notes.length === 0 ? 'User' : `User (${notes.join(', ')})`;
  const words: Piece = { kind: 'user', text: `\n${label}: ${indent(cutText(entry.text, cap), '  ')}` };
  if (entry.pasted.length === 0) return [[words]];
  const heads = entry.pasted.map((p, i) => `  [pasted ${p.kind} #${i + 1}, ${formatCount(p.lines)} lines, ${formatCount(p.chars)} chars: not the user's words]`);
  return [
    [words, { kind: 'pasted', text: heads.map((h) => `\n${h}`).join('') }],
    [words, { kind: 'pasted', text: entry.pasted.map((p, i) => `\n${heads[i]} ${indent(p.excerpt, '    ')}`).join('') }],
  ];
}

/**
 * Tools that only read (files, searches, pages): what they returned is the codebase or a third party's text,
 * never a finding of the session, so only the call is shown unless the call failed.
 */
const READING_TOOLS = /^(?:read|view|cat|grep|glob|ls|list_?dir|find|search|notebookread|webfetch|websearch|fetchurl|fetch|read_?file|list_?files|codebase_search|file_search)$/i;

function toolVariants(entry: SessionEntry & { kind: 'tool' }): Variants {
  const outcome = entry.outcome === undefined ? '' : ` → ${OUTCOME_LABEL[entry.outcome]}${entry.detail === undefined ? '' : ` (${entry.detail})`}`;
  const call: Piece = { kind: 'toolCalls', text: `  ${neutralise(entry.summary)}${outcome}` };
  if (entry.output === undefined || entry.output === '') return [[call]];
  if (READING_TOOLS.test(entry.name) && entry.outcome === undefined) return [[call]];
  return [[call], [call, { kind: 'toolOutput', text: `\n  [tool output] ${indent(entry.output, '    ')}` }]];
}

function variantsOf(entry: SessionEntry, userCap: number): Variants {
  switch (entry.kind) {
    case 'user':
      return userVariants(entry, userCap);
    case 'interrupt':
      return [[{ kind: 'notes', text: '[The user interrupted the assistant.]' }]];
    case 'assistant':
      return [[{ kind: 'assistant', text: `Assistant: ${indent(cutText(entry.text, entry.final ? LIMITS.assistantFinal : LIMITS.assistantText), '  ')}` }]];
    case 'tool':
      return toolVariants(entry);
    case 'compaction':
      return [[{ kind: 'summary', text: `\n[Summary of the session before this point, written by the agent when the conversation was compacted:]\n  ${indent(entry.text, '  ')}` }]];
    case 'subagent':
      return [[{ kind: 'toolCalls', text: `  [subagent, ${entry.turns} turn${entry.turns === 1 ? '' : 's'}] task: ${indent(entry.task || '(none)', '    ')} | answer: ${indent(entry.result || '(none)', '    ')}` }]];
  }
}

const length = (pieces: readonly Piece[]): number => pieces.reduce((n, p) => n + p.text.length, 0);
const outputChars = (pieces: readonly Piece[]): number => pieces.reduce((n, p) => n + (p.kind === 'toolOutput' ? p.text.length : 0), 0);

/** A step raises one entry to a variant; steps are tried by tier, then rank. */
interface Step {
  entry: number;
  level: number;
  tier: number;
  rank: number;
}

/** The cap per typed message that lets them all take at most this share of the budget. */
const USER_SHARE = 0.6;
/**
 * At most this share of the budget goes to tool output snippets: a local model reads every character of the
 * prompt (tens of seconds per few thousand tokens on a CPU), and output is the least telling part.
 */
const TOOL_OUTPUT_SHARE = 0.3;

function userCap(entries: readonly SessionEntry[], maxChars: number): number {
  const users = entries.filter((e): e is SessionEntry & { kind: 'user' } => e.kind === 'user');
  const cost = (cap: number) => users.reduce((n, u) => n + Math.min(u.text.length, cap) + 16, 0);
  let cap: number = LIMITS.userText;
  while (cap > LIMITS.userTextFloor && cost(cap) > maxChars * USER_SHARE) cap = Math.max(LIMITS.userTextFloor, Math.floor(cap * 0.8));
  return cap;
}

function plan(entries: readonly SessionEntry[], variants: readonly Variants[]): Step[] {
  const lastCompaction = entries.map((e) => e.kind).lastIndexOf('compaction');
  const firstUser = entries.findIndex((e) => e.kind === 'user');
  const steps: Step[] = [];
  entries.forEach((entry, i) => {
    const newest = -i;
    // Before the last compaction its summary tells the assistant's and the tools' part.
    const late = i > lastCompaction ? 0 : 6;
    const top = (variants[i]?.length ?? 1) - 1;
    switch (entry.kind) {
      case 'user':
        steps.push({ entry: i, level: 0, tier: 0, rank: i === firstUser ? -Infinity : newest });
        if (top > 0) steps.push({ entry: i, level: top, tier: 3, rank: newest });
        break;
      case 'interrupt':
        steps.push({ entry: i, level: 0, tier: 0, rank: newest });
        break;
      case 'compaction':
        steps.push({ entry: i, level: 0, tier: 1, rank: newest });
        break;
      case 'assistant':
        steps.push({ entry: i, level: 0, tier: (entry.final ? 1 : 3) + late, rank: newest });
        break;
      case 'subagent':
        steps.push({ entry: i, level: 0, tier: 2 + late, rank: newest });
        break;
      case 'tool':
        if (entry.outcome !== undefined) steps.push({ entry: i, level: 0, tier: 2 + late, rank: newest });
        steps.push({ entry: i, level: top, tier: 4 + late, rank: newest });
        if (top > 0) steps.push({ entry: i, level: 0, tier: 5 + late, rank: newest });
        break;
    }
  });
  return steps.sort((a, b) => a.tier - b.tier || a.rank - b.rank);
}

function gapMarker(count: number): string {
  return `[… ${formatCount(count)} event${count === 1 ? '' : 's'} left out …]`;
}

export function renderSession(entries: readonly SessionEntry[], maxChars: number): RenderedSession {
  const cap = userCap(entries, maxChars);
  const variants = entries.map((entry) => variantsOf(entry, cap));
  const levels = new Array<number>(entries.length).fill(-1);
  // Each entry shown can add at most one marker (it may split a gap in two) and one separator; the first
  // entry shown can leave a gap on both sides.
  const perEntry = gapMarker(entries.length).length + 2;
  let left = maxChars - perEntry;
  let outputLeft = Math.floor(maxChars * TOOL_OUTPUT_SHARE);
  for (const step of plan(entries, variants)) {
    const current = levels[step.entry] as number;
    if (current >= step.level) continue;
    const wanted = variants[step.entry]?.[step.level] ?? [];
    const had = current === -1 ? [] : (variants[step.entry]?.[current] ?? []);
    const cost = length(wanted) - length(had) + (current === -1 ? perEntry : 0);
    const output = outputChars(wanted) - outputChars(had);
    if (cost > left || output > outputLeft) continue;
    levels[step.entry] = step.level;
    left -= cost;
    outputLeft -= output;
  }
  return assemble(entries, variants, levels, maxChars);
}

function assemble(entries: readonly SessionEntry[], variants: readonly Variants[], levels: readonly number[], maxChars: number): RenderedSession {
  const chars: Record<PieceKind, number> = { user: 0, pasted: 0, assistant: 0, toolCalls: 0, toolOutput: 0, summary: 0, notes: 0 };
  const blocks: string[] = [];
  let gap = 0;
  let shown = 0;
  let typedShown = 0;
  const note = (text: string): void => {
    blocks.push(text);
    chars.notes += text.length;
  };
  entries.forEach((entry, i) => {
    const level = levels[i] as number;
    if (level === -1) {
      gap += 1;
      return;
    }
    if (gap > 0) note(gapMarker(gap));
    gap = 0;
    shown += 1;
    if (entry.kind === 'user') typedShown += 1;
    const pieces = variants[i]?.[level] ?? [];
    for (const piece of pieces) chars[piece.kind] += piece.text.length;
    blocks.push(pieces.map((p) => p.text).join(''));
  });
  if (gap > 0 && shown > 0) note(gapMarker(gap));
  chars.notes += Math.max(0, blocks.length - 1);
  let text = blocks.join('\n').replace(/^\n+/, '');
  // The plan leaves room for every marker and separator; this only guards the arithmetic.
  if (text.length > maxChars) text = cutText(text, maxChars);
  return {
    text,
    stats: {
      typedMessages: entries.filter((e) => e.kind === 'user').length,
      typedMessagesShown: typedShown,
      entries: entries.length,
      entriesShown: shown,
      fullChars: variants.reduce((n, v) => n + length(v[v.length - 1] ?? []) + 1, 0),
      chars,
    },
  };
}
