import { describe, expect, it } from 'vitest';
import { copilotSessionFile } from '../../../src/hook/copilot-session-file.js';
import { detectAgent, namedAgent } from '../../../src/hook/hook-agent.js';
import { parseHookInput } from '../../../src/hook/hook-input.js';
import { parsePostToolUsePayload } from '../../../src/endless/post-tool-use-input.js';

/** Payloads GitHub Copilot CLI 1.0.102 sent to hooks registered under PascalCase event names. */
const SESSION = '6a631a2b-eda9-4b46-96b0-71bf8cdbe944';
const START = { hook_event_name: 'SessionStart', session_id: SESSION, timestamp: '2026-11-27T16:49:29.157Z', cwd: '/p', source: 'new', initial_prompt: 'run echo hi' };
const END = { hook_event_name: 'SessionEnd', session_id: SESSION, timestamp: '2026-11-27T16:49:32.407Z', cwd: '/p', reason: 'complete' };
const POST = {
  hook_event_name: 'PostToolUse',
  session_id: SESSION,
  timestamp: '2026-11-27T16:49:32.244Z',
  cwd: '/p',
  tool_name: 'Bash',
  tool_input: { command: 'echo hi', description: 'say hi' },
  tool_result: { result_type: 'success', text_result_for_llm: 'hi\n<shellId: 0 completed with exit code 0>' },
};

describe("GitHub Copilot CLI's hook payloads", () => {
  it('reads SessionStart and SessionEnd, which carry the session id but no transcript path', () => {
    expect(parseHookInput(JSON.stringify(START))).toEqual({ ok: true, input: { sessionId: SESSION, transcriptPath: null, cwd: '/p', event: 'SessionStart', reason: null, source: 'new' } });
    expect(parseHookInput(JSON.stringify(END))).toEqual({ ok: true, input: { sessionId: SESSION, transcriptPath: null, cwd: '/p', event: 'SessionEnd', reason: 'complete', source: null } });
  });

  it("finds the session's events.jsonl from its id in COPILOT_HOME, else ~/.copilot, and refuses ids that could leave the folder", () => {
    expect(copilotSessionFile({ COPILOT_HOME: '/data/cop', HOME: '/home/me' }, SESSION)).toBe(`/data/cop/session-state/${SESSION}/events.jsonl`);
    expect(copilotSessionFile({ HOME: '/home/me' }, SESSION)).toBe(`/home/me/.copilot/session-state/${SESSION}/events.jsonl`);
    for (const bad of [null, '../etc', 'a/b', '..', '.hidden', 'a..b', '']) expect(copilotSessionFile({ HOME: '/home/me' }, bad)).toBeNull();
    expect(copilotSessionFile({}, SESSION)).toBeNull();
  });

  it("knows Copilot by --agent, by COPILOT_CLI=1 (before the CLAUDE_PROJECT_DIR Copilot also sets) or by its session file's path", () => {
    expect(namedAgent(['--agent', 'copilot'])).toBe('copilot');
    expect(detectAgent([], { COPILOT_CLI: '1', CLAUDE_PROJECT_DIR: '/p' }, '')).toBe('copilot');
    expect(detectAgent([], {}, `/home/me/.copilot/session-state/${SESSION}/events.jsonl`)).toBe('copilot');
    expect(detectAgent([], { CLAUDE_PROJECT_DIR: '/p' }, '/home/me/.claude/projects/p/a.jsonl')).toBe('claude');
  });

  it("reads PostToolUse's tool_result text as the tool's plain output, with an id derived from the call", () => {
    const parsed = parsePostToolUsePayload(JSON.stringify(POST));
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.payload).toMatchObject({ sessionId: SESSION, toolName: 'Bash', toolResponse: 'hi\n<shellId: 0 completed with exit code 0>', idDerived: true });
    expect(parsePostToolUsePayload(JSON.stringify({ ...POST, tool_result: { result_type: 'success' } }))).toEqual({ ok: false, problem: 'no tool_response for Bash' });
    expect(parsePostToolUsePayload(JSON.stringify({ ...POST, tool_result: ['x'] }))).toEqual({ ok: false, problem: 'no tool_response for Bash' });
  });
});
