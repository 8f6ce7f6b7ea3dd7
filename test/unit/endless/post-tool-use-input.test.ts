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
    ['no tool_use_id', '{"tool_name":"Bash","tool_response":{}}', 'no tool_use_id for Bash'],
    ['a null tool_response', '{"tool_name":"Bash","tool_use_id":"t","tool_response":null}', 'no tool_response for Bash'],
  ])('refuses %s with a reason', (_label, text, problem) => {
    expect(parsePostToolUsePayload(text)).toEqual({ ok: false, problem });
  });
});
