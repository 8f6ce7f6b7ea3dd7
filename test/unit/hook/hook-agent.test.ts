import { describe, expect, it } from 'vitest';
import { detectAgent, namedAgent } from '../../../src/hook/hook-agent.js';
import { parseHookInput } from '../../../src/hook/hook-input.js';

describe('which agent ran a hook', () => {
  it('takes the agent --agent names, and ignores names it does not know', () => {
    expect(namedAgent(['--agent', 'codex'])).toBe('codex');
    expect(namedAgent(['--agent', 'factory'])).toBe('factory');
    expect(namedAgent(['--agent', 'constructor'])).toBeNull();
    expect(namedAgent([])).toBeNull();
  });

  it("knows a Codex rollout by its path when the command names no agent", () => {
    expect(detectAgent([], {}, '/home/me/.codex/sessions/2026/11/27/rollout-2026-11-27T15-29-39-01a21da0.jsonl')).toBe('codex');
    expect(detectAgent([], {}, '/data/codex-home/sessions/2026/11/27/rollout-x.jsonl')).toBe('codex');
    expect(detectAgent([], {}, '/home/me/.claude/projects/p/abc.jsonl')).toBe('claude');
    expect(detectAgent([], {}, '/somewhere/rollout-notes.jsonl')).toBe('unknown');
  });
});

describe("Codex's hook payloads", () => {
  it('reads the SessionStart and SessionEnd payloads Codex 0.171 sends', () => {
    const start = parseHookInput(
      JSON.stringify({ session_id: '01a2', transcript_path: '/h/.codex/sessions/2026/11/27/rollout-x-01a2.jsonl', cwd: '/p', hook_event_name: 'SessionStart', model: 'm', permission_mode: 'bypassPermissions', source: 'startup' }),
    );
    expect(start).toEqual({ ok: true, input: { sessionId: '01a2', transcriptPath: '/h/.codex/sessions/2026/11/27/rollout-x-01a2.jsonl', cwd: '/p', event: 'SessionStart', reason: null, source: 'startup' } });
    const end = parseHookInput(JSON.stringify({ session_id: '01a2', transcript_path: null, cwd: '/p', hook_event_name: 'SessionEnd', reason: 'other' }));
    expect(end).toEqual({ ok: true, input: { sessionId: '01a2', transcriptPath: null, cwd: '/p', event: 'SessionEnd', reason: 'other', source: null } });
  });
});
