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
  | { kind: 'assistant'; text: string; messageId?: string }
  /** `command`: the shell command it ran; `target`: the file it touched. */
  | { kind: 'tool-call'; summary: string; name: string; id?: string; command?: string; target?: string }
  | { kind: 'tool-result'; text: string; chars: number; isError: boolean; id?: string }
  /** Claude Code's own summary of the conversation before a compaction. */
  | { kind: 'compaction'; text: string }
  /** One line of a subagent's conversation (`isSidechain`). */
  | { kind: 'sidechain'; role: 'user' | 'assistant'; text: string };

/** What became of a tool call, as far as the session shows. */
export type Outcome = 'failed' | 'passed' | 'committed' | 'reverted' | 'rejected';

export type SessionEntry =
  /** `reaction`: the message agrees with, or corrects, what the assistant just did. */
  | { kind: 'user'; text: string; pasted: readonly PastedBlock[]; command?: string; reaction?: 'agrees' | 'corrects' }
  | { kind: 'interrupt' }
  /** `final`: the assistant's last words before the user spoke again (or the session ended). */
  | { kind: 'assistant'; text: string; final: boolean }
  | {
      kind: 'tool';
      name: string;
      summary: string;
      output?: string;
      outputChars: number;
      outcome?: Outcome;
      /** What the outcome rests on, e.g. `exit code 1`, `tests failed`, `retried later`, `later reverted`. */
      detail?: string;
    }
  | { kind: 'compaction'; text: string }
  | { kind: 'subagent'; turns: number; task: string; result: string };
