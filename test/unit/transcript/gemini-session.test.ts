import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseTranscriptLine } from '../../../src/transcript/parse-transcript-line.js';
import { readTranscript } from '../../../src/transcript/read-transcript.js';

/** A session file the real Gemini CLI 0.61.0 wrote: a SessionStart hook's context, two shell calls (one failing). */
const SESSION = join(fileURLToPath(new URL('../../fixtures/transcripts/', import.meta.url)), 'gemini-cli-session.jsonl');

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
    expect(events).toMatchObject([{ kind: 'tool-result', id: 'c2', isError: true, text: 'observation text' }]);
  });

  it('reads nothing from the header, header updates and info messages', () => {
    expect(parseTranscriptLine(JSON.stringify({ sessionId: 's', projectHash: 'h', startTime: 't', kind: 'main' }))).toEqual([]);
    expect(parseTranscriptLine(JSON.stringify({ $set: { messages: [] } }))).toEqual([]);
    expect(parseTranscriptLine(JSON.stringify({ id: 'i', timestamp: 't', type: 'info', content: 'Update available' }))).toEqual([]);
  });
});
