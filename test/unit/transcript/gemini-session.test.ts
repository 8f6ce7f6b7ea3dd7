import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseTranscriptLine } from '../../../src/transcript/parse-transcript-line.js';
import { readTranscript } from '../../../src/transcript/read-transcript.js';

/** A session file the real Gemini CLI 0.61.0 wrote: a SessionStart hook's context, two shell calls (one failing). */
const SESSION = join(fileURLToPath(new URL('../../fixtures/transcripts/', import.meta.url)), 'gemini-cli-session.jsonl');
/**
 * A session file the real Gemini CLI 0.61.0 wrote across a compression: `gemini -p` ("First prompt: always use
 * blue green releases."), then `gemini --resume latest -p` whose first answer (a shell call) a Gemini API double
 * reported at 1,040,000 prompt tokens, so Gemini compressed before sending the tool's result; the double answered
 * the summary requests with a `<scratchpad>` and a `<state_snapshot>`. Gemini also wrote the history again as a
 * `$set` of `messages` at each start and resume, without a summary.
 */
const COMPRESSED = join(fileURLToPath(new URL('../../fixtures/transcripts/', import.meta.url)), 'gemini-cli-compressed-session.jsonl');

describe('Gemini CLI session files', () => {
  it("reads the user's words, the shell calls, their results and the model's answer from a real session", async () => {
    const result = await readTranscript(SESSION);
    expect(result.text).toContain('User: Always run seq before ls in this repo. Now list things.');
    expect(result.text).toContain('[tool run_shell_command: seq 1 3]');
    expect(result.text).toContain('[tool run_shell_command: ls /nonexistent-dir]');
    expect(result.text).toContain('The directory does not exist, and seq printed three numbers.');
    expect(result.skippedLines).toBe(0);
  });

  it("leaves out Gemini's session context and the context hooks put before the prompt", async () => {
    const result = await readTranscript(SESSION);
    expect(result.text).not.toContain('session_context');
    expect(result.text).not.toContain('CTX-FROM-HOOK-42');
    expect(result.text).not.toContain('hook_context');
    expect(result.firstRequest).toBe('Always run seq before ls in this repo. Now list things.');
  });

  it('reads a message written twice under one id once, in its last version, across the header updates between them', async () => {
    const { writeFileSync, mkdtempSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const file = join(mkdtempSync(join(tmpdir(), 'gemini-')), 'session.jsonl');
    const turn = { id: 'm1', timestamp: '2026-11-27T00:00:00Z', type: 'gemini', content: 'Running the tests now.' };
    writeFileSync(
      file,
      [
        { sessionId: 's', projectHash: 'h', startTime: 't', kind: 'main' },
        { id: 'u1', timestamp: 't', type: 'user', content: [{ text: 'Please run the tests for the parser module.' }] },
        turn,
        { $set: { lastUpdated: 't' } },
        { ...turn, toolCalls: [{ id: 'c1', name: 'run_shell_command', args: { command: 'npm test' }, status: 'success' }] },
        { id: 'u2', timestamp: 't', type: 'user', content: [{ functionResponse: { id: 'c1', name: 'run_shell_command', response: { output: 'all green' } } }] },
      ]
        .map((line) => JSON.stringify(line))
        .join('\n'),
    );
    const result = await readTranscript(file);
    expect(result.text.split('Running the tests now.').length).toBe(2);
    expect(result.text).toContain('[tool run_shell_command: npm test]');
    expect(result.text).toContain('all green');
  });

  it("reads an AfterTool hook's replacement, which Gemini records as the tool's error", () => {
    const events = parseTranscriptLine(
      JSON.stringify({ id: 'u3', timestamp: 't', type: 'user', content: [{ functionResponse: { id: 'c2', name: 'run_shell_command', response: { error: 'observation text' } } }] }),
    );
    expect(events).toMatchObject([{ kind: 'tool-result', id: 'c2', isError: true, output: { text: 'observation text' } }]);
  });

  it('reads nothing from the header, header updates and info messages', () => {
    expect(parseTranscriptLine(JSON.stringify({ sessionId: 's', projectHash: 'h', startTime: 't', kind: 'main' }))).toEqual([]);
    expect(parseTranscriptLine(JSON.stringify({ $set: { messages: [] } }))).toEqual([]);
    expect(parseTranscriptLine(JSON.stringify({ id: 'i', timestamp: 't', type: 'info', content: 'Update available' }))).toEqual([]);
  });

  /**
   * A compression as Gemini CLI 0.61.0 records it (bundle/chunk-JDPZ4CE3.js): ChatCompressionService.compress
   * returns the new history `[{role: "user", parts: [{text: finalSummary}]}, {role: "model", parts: [{text:
   * "Got it. Thanks for the additional context!"}]}, ...kept turns]` (lines 335736-335745);
   * GeminiClient.tryCompressChat starts a new chat on it with the session file (346930); getInitialChatHistory
   * puts the `<session_context>` message (stable id) first (334967-334987); GeminiChat.initialize calls
   * ChatRecordingService.updateMessagesFromHistory (331928-331931), which gives each new turn a fresh id
   * through newMessage (`{id, timestamp, type, content}`, 286389-286397) and appends `{"$set": {messages,
   * lastUpdated}}` (286644-286647, through updateMetadata and appendRecord). No other record names the
   * compression.
   */
  const snapshot = '<state_snapshot>\n<overall_goal>Ship the parser.</overall_goal>\n<active_constraints>Use blue green releases.</active_constraints>\n</state_snapshot>';
  const compression = (summaryId: string, summary: string): Record<string, unknown> => ({
    $set: {
      messages: [
        { id: 'f3b1c0de', timestamp: '2026-11-27T10:00:00.000Z', type: 'user', content: [{ text: '<session_context>\nThis is the Gemini CLI.\n</session_context>' }] },
        { id: summaryId, timestamp: '2026-11-27T10:05:00.000Z', type: 'user', content: [{ text: summary }] },
        { id: 'a2', timestamp: '2026-11-27T10:05:00.000Z', type: 'gemini', content: [{ text: 'Got it. Thanks for the additional context!' }] },
        { id: 'a3', timestamp: '2026-11-27T10:05:00.000Z', type: 'user', content: [{ text: 'Now run the tests again.' }] },
      ],
      lastUpdated: '2026-11-27T10:05:00.000Z',
    },
  });

  it("reads a compression's summary from the history Gemini writes again after it, and only the summary", () => {
    const events = parseTranscriptLine(JSON.stringify(compression('a1', `<scratchpad>The user wants the parser shipped.</scratchpad>\n${snapshot}`)));
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ kind: 'compaction' });
    const text = JSON.stringify(events);
    expect(text).toContain('blue green releases');
    expect(text).not.toContain('scratchpad');
    expect(text).not.toContain('Now run the tests again.');
  });

  it('reads no summary from a history rewrite without the answer Gemini gives a compression', () => {
    const line = compression('a1', snapshot);
    const messages = (line['$set'] as { messages: Array<Record<string, unknown>> }).messages;
    messages[2] = { ...messages[2], content: [{ text: 'Sure.' }] };
    expect(parseTranscriptLine(JSON.stringify(line))).toEqual([]);
  });

  it('reads the summary of a compression the real CLI recorded, once, beside the turns before and after it', async () => {
    const result = await readTranscript(COMPRESSED);
    expect(result.text.split('<overall_goal>Say hi.</overall_goal>').length).toBe(2);
    expect(result.text).not.toContain('Thinking it over.');
    expect(result.text.split('First prompt: always use blue green releases.').length).toBe(2);
    expect(result.text.split('SECOND prompt, run echo hi').length).toBe(2);
    expect(result.text).toContain('[tool run_shell_command: echo hi]');
    expect(result.text).toContain('Finished.');
    expect(result.skippedLines).toBe(0);
  });

  it('reads each summary once when Gemini writes the history again after a compression', async () => {
    const { writeFileSync, mkdtempSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const file = join(mkdtempSync(join(tmpdir(), 'gemini-')), 'session.jsonl');
    const second = snapshot.replace('blue green releases', 'canary releases');
    writeFileSync(
      file,
      [
        { sessionId: 's', projectHash: 'h', startTime: 't', kind: 'main' },
        { id: 'u1', timestamp: 't', type: 'user', content: [{ text: 'Please ship the parser with blue green releases.' }] },
        compression('a1', snapshot),
        compression('a1', snapshot),
        compression('b1', second),
      ]
        .map((line) => JSON.stringify(line))
        .join('\n'),
    );
    const result = await readTranscript(file);
    expect(result.text).toContain('Please ship the parser');
    expect(result.text.split('Use blue green releases.').length).toBe(2);
    expect(result.text).toContain('Use canary releases.');
  });
});
