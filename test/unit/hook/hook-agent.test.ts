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

describe("Qwen Code's hook payloads", () => {
  /** What Qwen Code 0.24.4 sent recall's hooks under `qwen -p` (paths shortened). */
  const transcript = '/h/.qwen/projects/-tmp-qx-proj/chats/ad007d7d-7065-40c6-8636-7fc02c276cdc.jsonl';

  it('reads the SessionStart and Stop payloads Qwen Code sends', () => {
    const start = parseHookInput(
      JSON.stringify({ session_id: 'ad007d7d', transcript_path: transcript, cwd: '/tmp/qx/proj', hook_event_name: 'SessionStart', timestamp: '2026-11-27T18:37:32.394Z', permission_mode: 'yolo', source: 'startup', model: 'qwen-double' }),
    );
    expect(start).toEqual({ ok: true, input: { sessionId: 'ad007d7d', transcriptPath: transcript, cwd: '/tmp/qx/proj', event: 'SessionStart', reason: null, source: 'startup' } });
    const stop = parseHookInput(
      JSON.stringify({ session_id: 'ad007d7d', transcript_path: transcript, cwd: '/tmp/qx/proj', hook_event_name: 'Stop', stop_hook_active: false, last_assistant_message: 'Finished here.', background_tasks: [], crons: [], context_usage: 0.00004 }),
    );
    expect(stop.ok && stop.input.transcriptPath).toBe(transcript);
  });

  it('knows Qwen Code by its session path or QWEN_PROJECT_DIR, though Qwen Code sets CLAUDE_PROJECT_DIR for hooks too', () => {
    expect(namedAgent(['--agent', 'qwen'])).toBe('qwen');
    expect(detectAgent([], {}, transcript)).toBe('qwen');
    expect(detectAgent([], { CLAUDE_PROJECT_DIR: '/p', QWEN_PROJECT_DIR: '/p' }, '')).toBe('qwen');
    expect(detectAgent([], { CLAUDE_PROJECT_DIR: '/p' }, '/h/.claude/projects/p/abc.jsonl')).toBe('claude');
  });
});
