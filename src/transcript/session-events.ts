import type { Stance } from './read-stance.js';
import type { ToolOutput } from './tool-output.js';

/**
 * The vocabulary of the transcript stage: what one transcript line holds (`SessionEvent`), and the session
 * folded into the entries the renderer chooses from (`SessionEntry`). Every text here is already cleaned of
 * injected context, redacted, and cut to the most any rendering of it can use.
 */

/** Text the user pasted into a message (a log, a diff, a review), kept apart from the words they typed. */
export interface PastedBlock {
  kind: 'code' | 'log' | 'diff' | 'stack trace' | 'document' | 'quote' | 'data';
  lines: number;
  chars: number;
  /** A short cut of the block: its head and tail, or the line that names the error. */
  excerpt: string;
}

export type SessionEvent =
  /** Words the user typed, with what they pasted kept apart. `command` names a slash command they ran. */
  | { kind: 'user'; text: string; pasted: readonly PastedBlock[]; command?: string }
  | { kind: 'interrupt' }
  /** `fullChars`: the text's length before any cut. */
  | { kind: 'assistant'; text: string; fullChars: number; messageId?: string }
  /**
   * `command`: the shell command it ran; `target`: the file it touched; `edit`: fingerprints of the text an edit
   * replaced and wrote (a whole-file write has no `before`), to tell a change later written back; `byUser`: a
   * command the user ran themselves (Claude Code's `!` bash mode).
   */
  | { kind: 'tool-call'; summary: string; name: string; id?: string; command?: string; target?: string; edit?: EditPrint; byUser?: boolean }
  /**
   * `output`: its snippet, redacted and cut when first read; `tests`: the pass and fail counts a test run printed,
   * read from the whole output before it was cut.
   */
  | { kind: 'tool-result'; output: ToolOutput; chars: number; isError: boolean; id?: string; tests?: string }
  /** Claude Code's own summary of the conversation before a compaction. */
  | { kind: 'compaction'; text: string }
  /** One line of a subagent's conversation (`isSidechain`). */
  | { kind: 'sidechain'; role: 'user' | 'assistant'; text: string };

/** Short fingerprints of an edit's replaced and written text. */
export interface EditPrint {
  before?: string;
  after: string;
}

/** What became of a tool call, as far as the session shows. */
export type Outcome = 'failed' | 'passed' | 'committed' | 'reverted' | 'rejected' | 'abandoned';

/** What the session shows became of an assistant's turn: the user said it failed, had it undone, or turned it down. */
export interface Verdict {
  outcome: 'failed' | 'reverted' | 'abandoned';
  detail: string;
}

export type SessionEntry =
  /** `stance`: what the message does to the work before it (see read-stance.ts). */
  | { kind: 'user'; text: string; pasted: readonly PastedBlock[]; command?: string; stance?: Stance }
  | { kind: 'interrupt' }
  /**
   * `final`: the assistant's last words before the user spoke again (or the session ended); `narration`: a short
   * line announcing its next step ("Now add the handler:"); `verdict`: what became of the turn it concludes.
   */
  | { kind: 'assistant'; text: string; fullChars: number; final: boolean; narration?: boolean; verdict?: Verdict }
  | {
      kind: 'tool';
      name: string;
      summary: string;
      output?: ToolOutput;
      outputChars: number;
      outcome?: Outcome;
      /** What the outcome rests on, e.g. `exit code 1`, `2 failed, 40 passed`, `retried later`, `later reverted`. */
      detail?: string;
      /** A command the user ran in the shell themselves, not the assistant. */
      byUser?: boolean;
    }
  | { kind: 'compaction'; text: string }
  | { kind: 'subagent'; turns: number; task: string; result: string };
