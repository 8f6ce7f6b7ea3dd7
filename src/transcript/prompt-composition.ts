/**
 * What the model's prompt is made of: characters and shares of the user's words, the assistant's, tools
 * (calls and output), pasted text, the compaction summary, the labels recall adds, the markers of left-out
 * events and recall's own instructions, and how much of the session's conclusion it keeps. Pure.
 */
import type { RenderStats } from './render-session.js';

export interface PromptPart {
  part: string;
  chars: number;
  /** Of the whole prompt (instructions included). */
  share: number;
}

export interface PromptComposition {
  promptChars: number;
  transcriptChars: number;
  parts: PromptPart[];
  typedMessages: number;
  typedMessagesShown: number;
  entries: number;
  entriesShown: number;
  markers: number;
  conclusion: RenderStats['conclusion'];
}

const round = (n: number): number => Math.round(n * 1000) / 1000;

/** `promptChars`: the system prompt and the prompt together; `transcriptChars`: the rendered session in it. */
export function composePrompt(stats: RenderStats, promptChars: number, transcriptChars: number): PromptComposition {
  const c = stats.chars;
  const raw: Array<[string, number]> = [
    ['user', c.user],
    ['assistant', c.assistant],
    ['tool calls', c.toolCalls],
    ['tool output', c.toolOutput],
    ['pasted', c.pasted],
    ['summary', c.summary],
    ['labels', c.labels],
    ['markers', c.markers],
    ['separators', c.notes],
    ['instructions', Math.max(0, promptChars - transcriptChars)],
  ];
  const total = Math.max(1, promptChars);
  return {
    promptChars,
    transcriptChars,
    parts: raw.map(([part, chars]) => ({ part, chars, share: round(chars / total) })),
    typedMessages: stats.typedMessages,
    typedMessagesShown: stats.typedMessagesShown,
    entries: stats.entries,
    entriesShown: stats.entriesShown,
    markers: stats.markers,
    conclusion: stats.conclusion,
  };
}
