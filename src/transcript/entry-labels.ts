/**
 * The labels recall adds to what the model reads: what a user's message does, what became of a tool call or
 * of an assistant's turn, and the heading of a block the user pasted. Pure.
 */
import { formatCount } from './cut-text.js';
import type { Outcome, PastedBlock, SessionEntry } from './session-events.js';

const OUTCOME_LABEL: Record<Outcome, string> = {
  failed: 'FAILED',
  passed: 'passed',
  committed: 'committed',
  reverted: 'REVERTED',
  rejected: 'REJECTED',
  abandoned: 'ABANDONED',
};

const STANCE_LABEL = {
  agrees: 'agrees',
  corrects: 'corrects the assistant',
  decides: 'changes a decision',
  asks: 'asks',
} as const;

/** `FAILED (exit code 1)`, `passed (tests passed; 45 passed)`, `committed`. */
export function outcomeLabel(outcome: Outcome, detail: string | undefined): string {
  return `${OUTCOME_LABEL[outcome]}${detail === undefined ? '' : ` (${detail})`}`;
}

/** `corrects the assistant`, `/review, asks`, or '' for a message that only asks for work. */
export function userLabel(entry: SessionEntry & { kind: 'user' }): string {
  return [entry.command, entry.stance === undefined ? undefined : STANCE_LABEL[entry.stance]].filter((n) => n !== undefined).join(', ');
}

/** `FAILED: the user said it does not work`, or '' for a turn nothing was said about. */
export function assistantLabel(entry: SessionEntry & { kind: 'assistant' }): string {
  return entry.verdict === undefined ? '' : `${OUTCOME_LABEL[entry.verdict.outcome]}: ${entry.verdict.detail}`;
}

/** `[pasted log #1, 6 lines, 420 chars: not the user's words]`. */
export function pastedHead(block: PastedBlock, index: number): string {
  return `[pasted ${block.kind} #${index + 1}, ${formatCount(block.lines)} lines, ${formatCount(block.chars)} chars: not the user's words]`;
}
