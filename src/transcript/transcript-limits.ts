/**
 * How much of each kind of text the renderer may show. The parser cuts every text to these limits as it
 * reads (after redacting it), so a long session costs memory in proportion to its number of lines only.
 */
export const LIMITS = {
  /** What the user typed in one message; the renderer may cut further when many messages compete. */
  userText: 1_200,
  /** What the parser keeps of a typed message: the session's last instruction is shown whole up to this. */
  userTextWhole: 4_000,
  /** The least of a typed message the renderer keeps before it leaves messages out. */
  userTextFloor: 200,
  /** One excerpt of text the user pasted: capped hard, since it is not their words. */
  pastedExcerpt: 240,
  /** The assistant's last words before the user speaks again: its conclusion. */
  assistantFinal: 800,
  /** Any other assistant text. */
  assistantText: 400,
  /** What the parser keeps of an assistant text: the session's conclusion is shown whole up to this. */
  conclusion: 6_000,
  /** A line of narration announcing the next step, once shortened. */
  narration: 120,
  /** One tool result's snippet. */
  toolOutput: 300,
  /** Claude Code's compaction summary. */
  compaction: 2_400,
  /** A subagent's task and its answer, each. */
  subagentText: 240,
} as const;
