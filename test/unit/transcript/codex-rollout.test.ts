import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseTranscriptLine } from '../../../src/transcript/parse-transcript-line.js';
import { readTranscript } from '../../../src/transcript/read-transcript.js';

/** A rollout the real Codex CLI 0.171.0 wrote: two shell calls (one failing), a resumed turn, an auto-compaction. */
const ROLLOUT = join(fileURLToPath(new URL('../../fixtures/transcripts/', import.meta.url)), 'codex-cli-rollout.jsonl');

const line = (type: string, payload: Record<string, unknown>): string => JSON.stringify({ timestamp: '2026-11-27T00:00:00.000Z', type, payload });

describe('Codex CLI rollouts', () => {
  it("reads the user's words, the assistant's, the shell calls and their results from a real rollout", async () => {
    const result = await readTranscript(ROLLOUT);
    expect(result.text).toContain('User: Always run seq before ls in this repo. Now list things.');
    expect(result.text).toContain('[tool exec_command: seq 1 3]');
    expect(result.text).toContain('[tool exec_command: ls /nonexistent-dir]');
    expect(result.text).toContain('The directory does not exist.');
    expect(result.cwd).toBe('/tmp/h33x/proj');
    expect(result.firstRequest).toBe('Always run seq before ls in this repo. Now list things.');
    expect(result.skippedLines).toBe(0);
  });

  it("leaves out Codex's own instructions, environment context and the compaction prompt", async () => {
    const result = await readTranscript(ROLLOUT);
    expect(result.text).not.toContain('environment_context');
    expect(result.text).not.toContain('skills_instructions');
    expect(result.text).not.toContain('You are a coding agent');
    expect(result.text).not.toContain('CONTEXT CHECKPOINT');
  });

  it('reads the compaction summary without the preamble Codex puts before it', () => {
    const events = parseTranscriptLine(
      line('compacted', {
        message:
          'Another language model started to solve this problem and produced a summary of its thinking process. You also have access to the state of the tools that were used by that language model. Use this to build on the work that has already been done and avoid duplicating work. Here is the summary produced by the other language model, use the information in this summary to assist with your own analysis:\nThe user wants seq before ls.',
        replacement_history: [],
      }),
    );
    expect(events).toEqual([{ kind: 'compaction', text: 'The user wants seq before ls.' }]);
  });

  it('marks a shell result with a non-zero exit code as failed and drops the header', () => {
    const [event] = parseTranscriptLine(
      line('response_item', { type: 'function_call_output', call_id: 'call_2', output: 'Chunk ID: d1\nWall time: 0.0 seconds\nProcess exited with code 2\nOriginal token count: 9\nOutput:\nls: cannot access' }),
    );
    expect(event).toMatchObject({ kind: 'tool-result', isError: true, id: 'call_2', output: { text: 'Exit code 2\nls: cannot access' } });
    const [ok] = parseTranscriptLine(line('response_item', { type: 'function_call_output', call_id: 'c', output: 'Chunk ID: d1\nProcess exited with code 0\nOutput:\n1\n2' }));
    expect(ok).toMatchObject({ kind: 'tool-result', isError: false, output: { text: '1\n2' } });
  });

  it('reads an apply_patch custom tool call and a turn the user aborted', () => {
    const [call] = parseTranscriptLine(line('response_item', { type: 'custom_tool_call', call_id: 'p1', name: 'apply_patch', input: '*** Begin Patch\n*** Update File: src/a.ts\n@@\n-a\n+b\n*** End Patch' }));
    expect(call).toMatchObject({ kind: 'tool-call', name: 'apply_patch', id: 'p1' });
    expect(parseTranscriptLine(line('response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text: '<turn_aborted>\nThe user interrupted.\n</turn_aborted>' }] }))).toEqual([{ kind: 'interrupt' }]);
  });

  it('reads nothing from developer messages, UI events and unknown payloads', () => {
    expect(parseTranscriptLine(line('response_item', { type: 'message', role: 'developer', content: [{ type: 'input_text', text: 'CTX' }] }))).toEqual([]);
    expect(parseTranscriptLine(line('event_msg', { type: 'user_message', message: 'hello' }))).toEqual([]);
    expect(parseTranscriptLine(line('response_item', { type: 'reasoning', summary: [] }))).toEqual([]);
    expect(parseTranscriptLine(line('response_item', { type: 'message', role: 'user', content: 'not blocks but text' }))).toMatchObject([{ kind: 'user', text: 'not blocks but text' }]);
    expect(parseTranscriptLine(line('response_item', { type: 'function_call', name: 'exec_command', arguments: '{broken' }))).toMatchObject([{ kind: 'tool-call', name: 'exec_command' }]);
  });
});

describe('reading part of a rollout', () => {
  it('reads only the bytes of the span a capture job names', async () => {
    const { size } = await import('node:fs').then((fs) => fs.statSync(ROLLOUT));
    const whole = await readTranscript(ROLLOUT, { startByte: 0, endByte: size });
    expect(whole.text).toBe((await readTranscript(ROLLOUT)).text);
    const text = await import('node:fs').then((fs) => fs.readFileSync(ROLLOUT, 'utf8'));
    const cut = Buffer.byteLength(text.slice(0, text.indexOf('"one more thing"')).replace(/[^\n]*$/, ''));
    const first = await readTranscript(ROLLOUT, { startByte: 0, endByte: cut });
    const rest = await readTranscript(ROLLOUT, { startByte: cut, endByte: size });
    expect(first.text).toContain('Always run seq before ls');
    expect(first.text).not.toContain('one more thing');
    expect(rest.text).toContain('one more thing');
    expect(rest.text).not.toContain('Always run seq before ls');
    expect(first.skippedLines + rest.skippedLines).toBe(0);
  });
});
