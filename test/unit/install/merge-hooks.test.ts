import { describe, expect, it } from 'vitest';
import { isRecallError } from '../../../src/core/errors.js';
import { mergeRecallHooks, removeRecallHooks, type JsonObject } from '../../../src/install/merge-hooks.js';
import { buildHookCommand, recallHookEntries, type HookCommandParts } from '../../../src/install/recall-hooks.js';

const parts: HookCommandParts = { nodePath: '/usr/bin/node', cliPath: '/opt/recall/dist/cli/main.js', agent: 'claude' };
const entries = recallHookEntries(parts, { endless: false });
const endlessEntries = recallHookEntries(parts, { endless: true });
const ours = (name: 'session-end' | 'session-start' | 'post-tool-use', p = parts) => buildHookCommand(p, name);

const userHooks = (): JsonObject => ({
  model: 'opus',
  permissions: { allow: ['Bash(npm test)'] },
  hooks: {
    SessionEnd: [{ hooks: [{ type: 'command', command: 'echo bye' }] }],
    PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'guard.sh', timeout: 3 }] }],
  },
  statusLine: { type: 'command', command: 'status.sh' },
});

function commandsOf(settings: JsonObject, event: string): string[] {
  const groups = (settings.hooks as Record<string, { hooks: { command: string }[] }[]>)[event] ?? [];
  return groups.flatMap((g) => g.hooks.map((h) => h.command));
}

function expectConfigInvalid(fn: () => unknown, message: RegExp): void {
  try {
    fn();
  } catch (err) {
    expect(isRecallError(err, 'CONFIG_INVALID')).toBe(true);
    expect((err as Error).message).toMatch(message);
    return;
  }
  throw new Error('expected a CONFIG_INVALID error');
}

describe('mergeRecallHooks', () => {
  it('adds SessionEnd and SessionStart groups to settings without a hooks key, keeping the other keys in order', () => {
    const { settings, changed } = mergeRecallHooks({ model: 'opus', theme: 'dark' }, entries);
    expect(changed).toBe(true);
    expect(Object.keys(settings)).toEqual(['model', 'theme', 'hooks']);
    expect(settings.hooks).toEqual({
      SessionStart: [{ hooks: [{ type: 'command', command: ours('session-start'), timeout: 5 }] }],
      SessionEnd: [{ hooks: [{ type: 'command', command: ours('session-end'), timeout: 10 }] }],
    });
  });

  it("keeps the user's own hooks on the same event and appends recall's as a group of its own", () => {
    const before = userHooks();
    const { settings } = mergeRecallHooks(before, entries);
    const hooks = settings.hooks as Record<string, unknown[]>;
    expect(hooks.SessionEnd?.[0]).toEqual({ hooks: [{ type: 'command', command: 'echo bye' }] });
    expect(commandsOf(settings, 'SessionEnd')).toEqual(['echo bye', ours('session-end')]);
    expect(hooks.PreToolUse).toEqual((before.hooks as Record<string, unknown>).PreToolUse);
    expect(settings.statusLine).toEqual(before.statusLine);
    expect(settings.permissions).toEqual(before.permissions);
  });

  it('does not change its input', () => {
    const before = userHooks();
    const copy = structuredClone(before);
    mergeRecallHooks(before, entries);
    expect(before).toEqual(copy);
  });

  it('adds nothing when run twice', () => {
    const once = mergeRecallHooks(userHooks(), entries).settings;
    const twice = mergeRecallHooks(once, entries);
    expect(twice.changed).toBe(false);
    expect(twice.settings).toEqual(once);
    expect(twice.changes.map((c) => c.action)).toEqual(['unchanged', 'unchanged']);
  });

  it('updates its entry in place when the checkout moved, without moving it or touching its neighbours', () => {
    const old = { ...parts, cliPath: '/old/place/dist/cli/main.js' };
    const start: JsonObject = {
      hooks: {
        SessionEnd: [{ matcher: '', hooks: [{ type: 'command', command: 'echo first' }, { type: 'command', command: ours('session-end', old), timeout: 10 }, { type: 'command', command: 'echo last' }] }],
      },
    };
    const { settings, changes } = mergeRecallHooks(start, entries);
    expect(commandsOf(settings, 'SessionEnd')).toEqual(['echo first', ours('session-end'), 'echo last']);
    expect((settings.hooks as Record<string, { matcher: string }[]>).SessionEnd?.[0]?.matcher).toBe('');
    expect(changes.find((c) => c.name === 'session-end')?.action).toBe('updated');
  });

  it('recognises the older `recall hook` form and rewrites it to the absolute form', () => {
    const start: JsonObject = { hooks: { SessionEnd: [{ hooks: [{ type: 'command', command: 'recall hook session-end' }] }] } };
    const { settings } = mergeRecallHooks(start, entries);
    expect(commandsOf(settings, 'SessionEnd')).toEqual([ours('session-end')]);
  });

  it('keeps one copy when recall is listed twice on the same event, dropping a group only it filled', () => {
    const start: JsonObject = {
      hooks: {
        SessionEnd: [
          { hooks: [{ type: 'command', command: ours('session-end'), timeout: 10 }] },
          { hooks: [{ type: 'command', command: 'recall hook session-end' }] },
          { hooks: [{ type: 'command', command: 'echo mine' }, { type: 'command', command: 'recall hook session-end' }] },
        ],
      },
    };
    const { settings } = mergeRecallHooks(start, entries);
    expect((settings.hooks as Record<string, unknown[]>).SessionEnd).toEqual([
      { hooks: [{ type: 'command', command: ours('session-end'), timeout: 10 }] },
      { hooks: [{ type: 'command', command: 'echo mine' }] },
    ]);
  });

  it('fills events whose arrays are empty', () => {
    const { settings } = mergeRecallHooks({ hooks: { SessionEnd: [], SessionStart: [] } }, entries);
    expect(commandsOf(settings, 'SessionEnd')).toEqual([ours('session-end')]);
    expect(commandsOf(settings, 'SessionStart')).toEqual([ours('session-start')]);
  });

  it('steps over matcher groups and hooks of shapes it does not know', () => {
    const start: JsonObject = { hooks: { SessionEnd: ['odd', { hooks: 'not-a-list' }, { hooks: [null, { type: 'prompt', prompt: 'x' }] }] } };
    const { settings } = mergeRecallHooks(start, entries);
    const groups = (settings.hooks as Record<string, unknown[]>).SessionEnd!;
    expect(groups.slice(0, 3)).toEqual((start.hooks as Record<string, unknown[]>).SessionEnd);
    expect(groups).toHaveLength(4);
  });

  it('adds the Endless PostToolUse hook on every tool only with --endless', () => {
    expect((mergeRecallHooks({}, entries).settings.hooks as JsonObject).PostToolUse).toBeUndefined();
    const { settings } = mergeRecallHooks({}, endlessEntries);
    expect((settings.hooks as JsonObject).PostToolUse).toEqual([{ matcher: '*', hooks: [{ type: 'command', command: ours('post-tool-use'), timeout: 90 }] }]);
  });

  it('keeps an installed Endless hook up to date on a plain install instead of dropping it', () => {
    const old = { ...parts, cliPath: '/old/dist/cli/main.js' };
    const start: JsonObject = { hooks: { PostToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: ours('post-tool-use', old), timeout: 90 }] }] } };
    const { settings } = mergeRecallHooks(start, entries);
    expect((settings.hooks as JsonObject).PostToolUse).toEqual([{ matcher: 'Bash', hooks: [{ type: 'command', command: ours('post-tool-use'), timeout: 90 }] }]);
  });

  it('refuses settings whose hooks is not an object', () => {
    expectConfigInvalid(() => mergeRecallHooks({ hooks: [] }, entries), /"hooks" must be an object, found an array/);
    expectConfigInvalid(() => mergeRecallHooks({ hooks: 'x' }, entries), /found a string/);
    expectConfigInvalid(() => mergeRecallHooks({ hooks: null }, entries), /found null/);
  });

  it('refuses an event it must add to when that event is not an array', () => {
    expectConfigInvalid(() => mergeRecallHooks({ hooks: { SessionEnd: {} } }, entries), /"hooks.SessionEnd" must be an array/);
  });
});

describe('removeRecallHooks', () => {
  it("gives back the user's settings exactly after an install", () => {
    const original = userHooks();
    const installed = mergeRecallHooks(original, endlessEntries).settings;
    const { settings, changed } = removeRecallHooks(installed);
    expect(changed).toBe(true);
    expect(settings).toEqual(original);
    expect(JSON.stringify(settings)).toBe(JSON.stringify(original));
  });

  it('drops the hooks key it created on settings that had none', () => {
    const installed = mergeRecallHooks({ model: 'opus' }, entries).settings;
    expect(removeRecallHooks(installed).settings).toEqual({ model: 'opus' });
  });

  it('keeps groups, events and a hooks key that were already empty', () => {
    const start: JsonObject = { hooks: { Stop: [], SessionEnd: [{ hooks: [] }] } };
    const installed = mergeRecallHooks(start, entries).settings;
    expect(removeRecallHooks(installed).settings).toEqual(start);
    expect(removeRecallHooks({ hooks: {} }).settings).toEqual({ hooks: {} });
  });

  it('removes its hook from a group it shares with the user and keeps the group', () => {
    const start: JsonObject = { hooks: { SessionEnd: [{ matcher: 'clear', hooks: [{ type: 'command', command: 'echo a' }, { type: 'command', command: 'recall hook session-end' }] }] } };
    expect(removeRecallHooks(start).settings).toEqual({ hooks: { SessionEnd: [{ matcher: 'clear', hooks: [{ type: 'command', command: 'echo a' }] }] } });
  });

  it('removes only the Endless hook when asked to', () => {
    const installed = mergeRecallHooks({}, endlessEntries).settings;
    const { settings, changes } = removeRecallHooks(installed, ['post-tool-use']);
    expect(Object.keys(settings.hooks as JsonObject)).toEqual(['SessionStart', 'SessionEnd']);
    expect(changes).toEqual([{ event: 'PostToolUse', name: 'post-tool-use', action: 'removed' }]);
  });

  it('reports no change when recall is not there', () => {
    const result = removeRecallHooks(userHooks());
    expect(result.changed).toBe(false);
    expect(result.settings).toEqual(userHooks());
    expect(removeRecallHooks({}).changed).toBe(false);
  });

  it('refuses settings whose hooks is not an object', () => {
    expectConfigInvalid(() => removeRecallHooks({ hooks: 3 }), /"hooks" must be an object/);
  });
});
