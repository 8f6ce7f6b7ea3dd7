import { describe, expect, it } from 'vitest';
import { checkHooks, findRecallHooks } from '../../../src/doctor/check-hooks.js';

const CMD = '"/usr/bin/node" "/opt/recall/dist/cli/main.js" hook';
const HOME = '/u/.recall';

function settings(...names: string[]) {
  return {
    hooks: {
      SessionEnd: [{ hooks: names.filter((n) => n === 'session-end').map((n) => ({ type: 'command', command: `${CMD} ${n}` })) }],
      SessionStart: [{ matcher: 'startup', hooks: names.filter((n) => n === 'session-start').map((n) => ({ type: 'command', command: `${CMD} ${n}` })) }],
      PreToolUse: [{ hooks: [{ type: 'command', command: 'other-tool hook session-end-ish' }] }],
    },
  };
}

describe('findRecallHooks', () => {
  it('finds recall hook commands across events and ignores other commands', () => {
    expect(findRecallHooks(settings('session-end', 'session-start'))).toEqual(['session-end', 'session-start']);
    expect(findRecallHooks({ hooks: { SessionEnd: [{ hooks: [{ type: 'command', command: 'echo bye' }] }] } })).toEqual([]);
  });

  it('tolerates settings of any shape', () => {
    expect(findRecallHooks(null)).toEqual([]);
    expect(findRecallHooks({ hooks: [] })).toEqual([]);
    expect(findRecallHooks({ hooks: { SessionEnd: 'x' } })).toEqual([]);
  });
});

describe('checkHooks', () => {
  it('passes when a settings file has the session-end hook, and says where', () => {
    const result = checkHooks('claude', [
      { path: '/u/.claude/settings.json', state: 'read', settings: settings('session-end', 'session-start') },
      { path: '/p/.claude/settings.json', state: 'missing' },
    ], HOME);
    expect(result).toMatchObject({ id: 'hooks-claude', status: 'ok', detail: 'session-end, session-start in /u/.claude/settings.json' });
  });

  it('warns with recall install as the fix when no file has the hook', () => {
    const result = checkHooks('claude', [
      { path: '/u/.claude/settings.json', state: 'read', settings: { model: 'opus' } },
      { path: '/p/.claude/settings.json', state: 'missing' },
    ], HOME);
    expect(result).toMatchObject({ status: 'warn', fix: 'recall install' });
    expect(result.detail).toMatch(/not installed/);
  });

  it('says "not installed" as information, not a warning, for an agent that is not on this machine', () => {
    const absent = { found: false, dir: '/u/.gemini', binary: 'gemini' };
    const result = checkHooks('gemini', [{ path: '/u/.gemini/settings.json', state: 'missing' }], HOME, absent);
    expect(result).toMatchObject({ id: 'hooks-gemini', status: 'info' });
    expect(result.detail).toBe('not installed: the agent is not on this machine (no /u/.gemini, no `gemini` on PATH)');
    expect(result.fix).toBeUndefined();
    // On the machine: a warning with the install command.
    expect(checkHooks('gemini', [{ path: '/u/.gemini/settings.json', state: 'missing' }], HOME, { ...absent, found: true })).toMatchObject({ status: 'warn', fix: 'recall install --target gemini' });
    // A settings file of the agent (a project's) counts as the agent being there.
    expect(checkHooks('gemini', [{ path: '/p/.gemini/settings.json', state: 'read', settings: { model: 'x' } }], HOME, absent).status).toBe('warn');
  });

  it('names the factory target in the fix for Factory', () => {
    expect(checkHooks('factory', [{ path: '/u/.factory/settings.json', state: 'missing' }], HOME).fix).toBe('recall install --target factory');
  });

  it("says for Factory that Endless Mode cannot compress droid's outputs", () => {
    const result = checkHooks('factory', [{ path: '/u/.factory/settings.json', state: 'read', settings: settings('session-end', 'session-start') }], HOME);
    expect(result.status).toBe('ok');
    expect(result.detail).toContain("Endless Mode cannot compress droid's tool outputs");
  });

  it('warns about a recall PostToolUse hook in Factory settings, which droid runs for nothing', () => {
    const withPost = { hooks: { ...settings('session-end').hooks, PostToolUse: [{ matcher: '*', hooks: [{ type: 'command', command: `${CMD} post-tool-use --agent factory` }] }] } };
    const result = checkHooks('factory', [{ path: '/u/.factory/settings.json', state: 'read', settings: withPost }], HOME);
    expect(result.status).toBe('warn');
    expect(result.fix).toContain('remove the PostToolUse entry');
  });

  it('fails when a settings file is not JSON', () => {
    const result = checkHooks('factory', [{ path: '/u/.factory/settings.json', state: 'invalid', message: '/u/.factory/settings.json is not valid JSON' }], HOME);
    expect(result.status).toBe('fail');
    expect(result.fix).toMatch(/repair the JSON in \/u\/\.factory\/settings\.json/);
  });

  it('warns when the session-end hook captures into another RECALL_HOME than the one checked', () => {
    const at = (home: string) => ({ hooks: { SessionEnd: [{ hooks: [{ type: 'command', command: `RECALL_HOME="${home}" ${CMD} session-end` }] }] } });
    const result = checkHooks('claude', [{ path: '/u/.claude/settings.json', state: 'read', settings: at('/data/recall') }], HOME);
    expect(result).toMatchObject({
      status: 'warn',
      detail: 'session-end in /u/.claude/settings.json; the session-end hook in /u/.claude/settings.json captures into RECALL_HOME=/data/recall, not into /u/.recall, which these checks look at',
      fix: 'check that state dir with RECALL_HOME="/data/recall" recall doctor, or run recall install from this shell to capture into /u/.recall',
    });
    expect(checkHooks('claude', [{ path: '/u/.claude/settings.json', state: 'read', settings: at('/u/.recall/') }], HOME).status).toBe('ok');
    // Without a RECALL_HOME of its own, a hook uses the agent's environment: nothing to compare.
    expect(checkHooks('claude', [{ path: '/u/.claude/settings.json', state: 'read', settings: settings('session-end') }], '/elsewhere').status).toBe('ok');
  });
});
