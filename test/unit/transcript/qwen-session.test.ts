import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseTranscriptLine } from '../../../src/transcript/parse-transcript-line.js';
import { readSessionOrigin } from '../../../src/transcript/read-session-origin.js';
import { readTranscript } from '../../../src/transcript/read-transcript.js';

/**
 * A session file the real Qwen Code 0.24.4 wrote (`qwen -p` against the Chat Completions double, a SessionStart
 * hook's context, one shell call), then two `--continue -p /compress` runs that compressed nothing.
 */
const SESSION = join(fileURLToPath(new URL('../../fixtures/transcripts/', import.meta.url)), 'qwen-code-session.jsonl');

const base = { uuid: 'u', parentUuid: null, sessionId: 's', timestamp: 't', cwd: '/p', version: '0.24.4' };

describe('Qwen Code session files', () => {
  it("reads the user's words, the shell call, its result and the model's answer from a real session", async () => {
    const result = await readTranscript(SESSION);
    expect(result.text).toContain('User: List the numbers one to five joined by plus signs. You must always use tabs for indentation here.');
    expect(result.text).toContain('[tool run_shell_command: seq 1 5 | paste -sd+]');
    expect(result.text).toContain('1+2+3+4+5');
    expect(result.text).toContain('I will use tabs for indentation from now on.');
    expect(result.firstRequest).toBe('List the numbers one to five joined by plus signs. You must always use tabs for indentation here.');
    expect(result.skippedLines).toBe(0);
  });

  it('leaves out the telemetry, attribution and other system records, and the context the SessionStart hook gave', async () => {
    const result = await readTranscript(SESSION);
    expect(result.text).not.toContain('ui_telemetry');
    expect(result.text).not.toContain('attribution');
    expect(result.text).not.toContain('MEMORY-MARKER-42');
  });

  it('knows where the session ran and its id', async () => {
    expect(await readSessionOrigin(SESSION)).toEqual({ cwd: '/tmp/qx/proj', sessionId: 'bbae5290-7180-4b87-aa62-b776ce4348b9' });
  });

  it("reads a PostToolUse hook's replacement, which Qwen Code records as the tool's error", () => {
    // As Qwen Code 0.24.4 recorded a {"continue":false,"stopReason":...} answer.
    const line = {
      ...base,
      type: 'tool_result',
      provenance: 'tool_result',
      message: { role: 'user', parts: [{ functionResponse: { id: 'call_1', name: 'run_shell_command', response: { error: 'observation text' } } }] },
      toolCallResult: { callId: 'call_1', status: 'error', resultDisplay: 'observation text', error: {}, errorType: 'execution_denied', executionStatus: 'success' },
    };
    expect(parseTranscriptLine(JSON.stringify(line))).toMatchObject([{ kind: 'tool-result', id: 'call_1', isError: true, output: { text: 'observation text' } }]);
  });

  it('reads the summary a chat compression starts the history with as a compaction summary', () => {
    const summary = '<state_snapshot>The user deploys with blue green releases.</state_snapshot>';
    const line = {
      ...base,
      type: 'system',
      subtype: 'chat_compression',
      systemPayload: { info: { compressionStatus: 1 }, compressedHistory: [{ role: 'user', parts: [{ text: summary }] }, { role: 'model', parts: [{ text: 'Got it.' }] }] },
    };
    const events = parseTranscriptLine(JSON.stringify(line));
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ kind: 'compaction' });
    expect(JSON.stringify(events)).toContain('blue green releases');
  });

  it("reads the model's thoughts as nothing, and a Goal runtime prompt or an unknown record as nobody's words", () => {
    const thought = { ...base, type: 'assistant', message: { role: 'model', parts: [{ text: 'Let me think about secrets.', thought: true }] } };
    expect(parseTranscriptLine(JSON.stringify(thought))).toEqual([]);
    const goal = { ...base, type: 'user', subtype: 'goal_runtime', provenance: 'goal_runtime', message: { role: 'user', parts: [{ text: 'Continue the goal.' }] } };
    expect(parseTranscriptLine(JSON.stringify(goal))).toEqual([]);
    expect(parseTranscriptLine(JSON.stringify({ ...base, type: 'system', subtype: 'custom_title', systemPayload: { title: 'x' } }))).toEqual([]);
    expect(parseTranscriptLine(JSON.stringify({ ...base, type: 'user', message: { role: 'user', parts: 'not a list' } }))).toEqual([]);
  });

  it('reads a message typed while tools ran as the user\'s words', () => {
    const line = { ...base, type: 'user', subtype: 'mid_turn_user_message', message: { role: 'user', parts: [{ text: 'Also check the README please.' }] } };
    expect(parseTranscriptLine(JSON.stringify(line))).toMatchObject([{ kind: 'user', text: 'Also check the README please.' }]);
  });
});
