import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseTranscriptLine } from '../../../src/transcript/parse-transcript-line.js';
import { readTranscript } from '../../../src/transcript/read-transcript.js';

/** A session file the real GitHub Copilot CLI 1.0.102 wrote (events.jsonl): one shell call whose command failed. */
const EVENTS = join(fileURLToPath(new URL('../../fixtures/transcripts/', import.meta.url)), 'copilot-cli-events.jsonl');

const line = (type: string, data: Record<string, unknown>): string => JSON.stringify({ type, data, id: 'e1', timestamp: '2026-11-27T00:00:00.000Z', parentId: null });

describe('GitHub Copilot CLI session files', () => {
  it("reads the user's words, the shell call, its failing result and the answer from a real session file", async () => {
    const result = await readTranscript(EVENTS);
    expect(result.text).toContain('User: Always run seq before ls in this repo. Now list things.');
    expect(result.text).toContain('[tool bash: seq 1 3 && ls /nonexistent-dir]');
    expect(result.text).toContain('Exit code 2');
    expect(result.text).toContain('All done.');
    expect(result.firstRequest).toBe('Always run seq before ls in this repo. Now list things.');
    expect(result.skippedLines).toBe(0);
  });

  it("leaves out Copilot's system prompt, its datetime wrapper, hook records and the shell trailer", async () => {
    const result = await readTranscript(EVENTS);
    expect(result.text).not.toContain('You are the GitHub Copilot CLI');
    expect(result.text).not.toContain('current_datetime');
    expect(result.text).not.toContain('<shellId:');
    expect(result.text).not.toContain('hookInvocationId');
  });

  it('reads a compaction summary, and keeps a subagent apart from the main conversation', () => {
    expect(parseTranscriptLine(line('session.compaction_complete', { success: true, summaryContent: 'The user wants seq before ls.' }))).toEqual([
      { kind: 'compaction', text: 'The user wants seq before ls.' },
    ]);
    const sub = parseTranscriptLine(line('assistant.message', { messageId: 'm', content: 'sub answer', toolRequests: [], parentToolCallId: 'call_9' }));
    expect(sub.every((event) => event.kind === 'sidechain')).toBe(true);
  });

  it('yields nothing for unknown event types and odd shapes', () => {
    expect(parseTranscriptLine(line('session.brand_new_event', { content: 'x' }))).toEqual([]);
    expect(parseTranscriptLine(line('assistant.message', { content: 42, toolRequests: 'no' }))).toEqual([]);
    expect(parseTranscriptLine(line('user.message', { content: null }))).toEqual([]);
    expect(parseTranscriptLine(JSON.stringify({ type: 'user.message', data: 'text' }))).toEqual([]);
  });
});
