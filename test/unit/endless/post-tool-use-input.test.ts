import { describe, expect, it } from 'vitest';
import { parsePostToolUsePayload } from '../../../src/endless/post-tool-use-input.js';

describe('parsePostToolUsePayload', () => {
  it('reads snake_case and camelCase payloads', () => {
    const snake = parsePostToolUsePayload(JSON.stringify({ session_id: 's', tool_use_id: 't', tool_name: 'Bash', tool_input: { command: 'ls' }, tool_response: { stdout: 'x' }, extra: 1 }));
    expect(snake).toEqual({ ok: true, payload: { sessionId: 's', toolUseId: 't', toolName: 'Bash', toolInput: { command: 'ls' }, toolResponse: { stdout: 'x' } } });
    const camel = parsePostToolUsePayload(JSON.stringify({ sessionId: 's', toolUseId: 't', toolName: 'Bash', toolResponse: 'x' }));
    expect(camel).toMatchObject({ ok: true, payload: { sessionId: 's', toolUseId: 't', toolResponse: 'x', toolInput: null } });
  });

  it.each([
    ['empty stdin', '', 'empty stdin'],
    ['text that is not JSON', 'hello', 'stdin is not JSON (or was cut at the size cap)'],
    ['a JSON array', '[1]', 'stdin JSON is not an object'],
    ['no tool_name', '{"tool_use_id":"t","tool_response":{}}', 'no tool_name'],
    ['a null tool_response', '{"tool_name":"Bash","tool_use_id":"t","tool_response":null}', 'no tool_response for Bash'],
  ])('refuses %s with a reason', (_label, text, problem) => {
    expect(parsePostToolUsePayload(text)).toEqual({ ok: false, problem });
  });

  it("accepts droid's payload (no tool_use_id, a plain string response) with an id derived from the call and the transcript's position", () => {
    const droid = (command: string) =>
      JSON.stringify({ session_id: 'd1', transcript_path: '/h/.factory/sessions/p/d1.jsonl', hook_event_name: 'PostToolUse', tool_name: 'Execute', tool_input: { command }, tool_response: '1\n2\n3\n\n[Process exited with code 0]' });
    const at = (size: number) => () => size;
    const first = parsePostToolUsePayload(droid('seq 1 3'), at(1000));
    expect(first).toMatchObject({ ok: true, payload: { sessionId: 'd1', toolName: 'Execute', toolInput: { command: 'seq 1 3' }, toolResponse: '1\n2\n3\n\n[Process exited with code 0]' } });
    const id = first.ok ? first.payload.toolUseId : '';
    expect(id).toMatch(/^derived_[0-9a-f]{24}$/);
    const again = parsePostToolUsePayload(droid('seq 1 3'), at(1000));
    expect(again.ok && again.payload.toolUseId).toBe(id);
    const later = parsePostToolUsePayload(droid('seq 1 3'), at(2000));
    expect(later.ok && later.payload.toolUseId).not.toBe(id);
    const other = parsePostToolUsePayload(droid('seq 1 4'), at(1000));
    expect(other.ok && other.payload.toolUseId).not.toBe(id);
  });

  it('keeps the id the agent sent', () => {
    const parsed = parsePostToolUsePayload(JSON.stringify({ tool_name: 'Bash', tool_use_id: 'toolu_1', tool_response: 'x' }), () => 5);
    expect(parsed.ok && parsed.payload.toolUseId).toBe('toolu_1');
  });
});
