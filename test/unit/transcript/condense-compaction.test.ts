import { describe, expect, it } from 'vitest';
import { condenseCompaction } from '../../../src/transcript/condense-compaction.js';

/** The compaction message Claude Code 2.1.197 writes after `/compact` (the summary is the model's answer). */
const COMPACTED = [
  'This session is being continued from a previous conversation that ran out of context. The summary below covers the earlier portion of the conversation.',
  '',
  'Summary:',
  'The user counted twice with seq and asked to keep money in integer cents.',
  '',
  'If you need specific details from before compaction (like exact code snippets, error messages, or content you generated), read the full transcript at: /home/u/.claude/projects/p/abc.jsonl',
  'Continue the conversation from where it left off without asking the user any further questions. Resume directly — do not acknowledge the summary, do not recap what was happening, do not preface with "I\'ll continue" or similar. Pick up the last task as if the break never happened.',
].join('\n');

describe('condenseCompaction', () => {
  it("drops Claude Code's resume instructions after the summary, which read like the user's rules", () => {
    const text = condenseCompaction(COMPACTED);
    expect(text).toBe('Summary:\nThe user counted twice with seq and asked to keep money in integer cents.');
    expect(text).not.toContain('never happened');
    expect(text).not.toContain('full transcript');
  });
});
