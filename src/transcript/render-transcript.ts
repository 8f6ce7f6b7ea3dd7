/**
 * Renders turns as plain text for the extractor:
 *
 *   User: mix phx.server does not start
 *
 *   Assistant: Let me run it.
 *     [tool Bash: mix phx.server]
 *     [result] ** (Mix) Could not start ...
 *       continuation lines of a result
 *
 * Pure. `createTurnRenderer` renders one turn at a time (so a reader can stream a large transcript
 * into a bounded collector); `renderTurns` is the same thing over an array.
 */
import type { Turn } from './parse-transcript-line.js';

const LABEL = { user: 'User', assistant: 'Assistant' } as const;
const TOOL_INDENT = '  ';
const TOOL_CONTINUATION_INDENT = '    ';

export interface TurnRenderer {
  /** The text this turn adds to everything rendered so far (separators included). */
  render(turn: Turn): string;
}

export function createTurnRenderer(): TurnRenderer {
  let started = false;
  let lastRole: Turn['role'] | undefined;
  let lastMessageId: string | undefined;

  return {
    render(turn) {
      let out: string;
      if (turn.role === 'tool') {
        const body = turn.text.split('\n').join(`\n${TOOL_CONTINUATION_INDENT}`);
        out = `${started ? '\n' : ''}${TOOL_INDENT}${body}`;
      } else if (
        turn.role === lastRole &&
        turn.messageId !== undefined &&
        turn.messageId === lastMessageId
      ) {
        // One API message split over several lines: keep it under one speaker label.
        out = `\n${turn.text}`;
      } else {
        out = `${started ? '\n\n' : ''}${LABEL[turn.role]}: ${turn.text}`;
      }
      started = true;
      lastRole = turn.role;
      lastMessageId = turn.messageId;
      return out;
    },
  };
}

export function renderTurns(turns: readonly Turn[]): string {
  const renderer = createTurnRenderer();
  let out = '';
  for (const turn of turns) out += renderer.render(turn);
  return out;
}
