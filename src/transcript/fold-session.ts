/**
 * Folds a session's events into the entries the renderer chooses from: an assistant message split over
 * several lines becomes one entry, each tool call is joined with its result and what became of it, a
 * subagent's lines become one summary, and the assistant's last words before the user speaks again are
 * marked as its conclusion. Pure.
 */
import { cutText } from './cut-text.js';
import { markOutcomes } from './mark-outcomes.js';
import type { ToolRun } from './mark-outcomes.js';
import { markVerdicts } from './mark-verdicts.js';
import type { SessionEntry, SessionEvent } from './session-events.js';
import { LIMITS } from './transcript-limits.js';

type ToolEntry = SessionEntry & { kind: 'tool' };

export function foldSession(events: readonly SessionEvent[]): SessionEntry[] {
  const entries: SessionEntry[] = [];
  const runs: ToolRun[] = [];
  /** Entry index of each run, and of each call by its id. */
  const runEntry: number[] = [];
  const byId = new Map<string, number>();
  let lastMessageId: string | undefined;
  let side: { turns: number; task: string; result: string } | undefined;

  const closeSidechain = (): void => {
    if (side === undefined) return;
    entries.push({ kind: 'subagent', ...side });
    side = undefined;
  };

  for (const event of events) {
    if (event.kind === 'sidechain') {
      side ??= { turns: 0, task: '', result: '' };
      side.turns += 1;
      if (event.role === 'user' && side.task === '') side.task = event.text;
      if (event.role === 'assistant') side.result = event.text;
      continue;
    }
    closeSidechain();
    switch (event.kind) {
      case 'assistant': {
        const last = entries[entries.length - 1];
        if (last?.kind === 'assistant' && event.messageId !== undefined && event.messageId === lastMessageId) {
          last.text = cutText(`${last.text}\n${event.text}`, LIMITS.conclusion);
          last.fullChars += event.fullChars + 1;
        } else {
          entries.push({ kind: 'assistant', text: event.text, fullChars: event.fullChars, final: false });
        }
        lastMessageId = event.messageId;
        continue;
      }
      case 'tool-call': {
        if (event.id !== undefined) byId.set(event.id, runs.length);
        runEntry.push(entries.length);
        runs.push({
          name: event.name,
          isError: false,
          ...(event.command === undefined ? {} : { command: event.command }),
          ...(event.target === undefined ? {} : { target: event.target }),
          ...(event.edit === undefined ? {} : { edit: event.edit }),
        });
        entries.push({ kind: 'tool', name: event.name, summary: event.summary, outputChars: 0, ...(event.byUser === true ? { byUser: true } : {}) });
        break;
      }
      case 'tool-result': {
        const run = resultRun(event.id, byId, runs);
        if (run === undefined) {
          // A result whose call is not in the file (it came before a resume): keep it as output on its own.
          runEntry.push(entries.length);
          runs.push({ name: 'unknown', isError: event.isError, output: event.output, ...(event.tests === undefined ? {} : { tests: event.tests }) });
          entries.push({ kind: 'tool', name: 'unknown', summary: '[tool result]', output: event.output, outputChars: event.chars });
        } else {
          const target = runs[run] as ToolRun;
          target.output = event.output;
          target.isError = event.isError;
          if (event.tests !== undefined) target.tests = event.tests;
          const entry = entries[runEntry[run] as number] as ToolEntry;
          entry.output = event.output;
          entry.outputChars = event.chars;
        }
        break;
      }
      default:
        entries.push({ ...event });
    }
    lastMessageId = undefined;
  }
  closeSidechain();

  markOutcomes(runs).forEach((outcome, i) => {
    if (outcome.outcome === undefined) return;
    const entry = entries[runEntry[i] as number] as ToolEntry;
    entry.outcome = outcome.outcome;
    if (outcome.detail !== undefined) entry.detail = outcome.detail;
  });
  markConclusions(entries);
  markVerdicts(entries);
  return entries;
}

/** The run a result belongs to: by id, else the latest call still without a result. */
function resultRun(id: string | undefined, byId: ReadonlyMap<string, number>, runs: readonly ToolRun[]): number | undefined {
  if (id !== undefined) {
    const run = byId.get(id);
    if (run !== undefined && runs[run]?.output === undefined) return run;
    if (run !== undefined) return undefined;
  }
  for (let i = runs.length - 1; i >= 0; i -= 1) if (runs[i]?.output === undefined) return i;
  return undefined;
}

/** Marks the last assistant text before each user message, and at the end of the session, as final. */
function markConclusions(entries: SessionEntry[]): void {
  let pending: (SessionEntry & { kind: 'assistant' }) | undefined;
  for (const entry of entries) {
    if (entry.kind === 'assistant') pending = entry;
    else if (entry.kind === 'user' || entry.kind === 'interrupt') {
      if (pending !== undefined) pending.final = true;
      pending = undefined;
    }
  }
  if (pending !== undefined) pending.final = true;
}
