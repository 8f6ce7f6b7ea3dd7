import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { buildHookCommand, quoteForShell, recallHookEntries, recallHookName, replacesToolOutput } from '../../../src/install/recall-hooks.js';

const parts = { nodePath: '/usr/local/bin/node', cliPath: '/home/me/recall/dist/cli/main.js', agent: 'claude' as const };

describe('recall hook commands', () => {
  it('runs this checkout with an absolute node and quotes both paths', () => {
    expect(buildHookCommand(parts, 'session-end')).toBe('"/usr/local/bin/node" "/home/me/recall/dist/cli/main.js" hook session-end');
  });

  it('tells the hook it runs for Factory with --agent factory after the event name', () => {
    expect(buildHookCommand({ ...parts, agent: 'factory' }, 'session-end')).toBe(
      '"/usr/local/bin/node" "/home/me/recall/dist/cli/main.js" hook session-end --agent factory',
    );
  });

  it('quotes paths with spaces, quotes, dollars and backticks so a POSIX shell passes them through unchanged', () => {
    const odd = '/tmp/My Projects/a"b$HOME`x`\\c/main.js';
    const echoed = execFileSync('/bin/sh', ['-c', `printf '%s' ${quoteForShell(odd)}`], { encoding: 'utf8' });
    expect(echoed).toBe(odd);
  });

  it('gives SessionEnd a 10 s timeout, SessionStart 5 s and the Endless PostToolUse hook 90 s on every tool', () => {
    const byName = Object.fromEntries(recallHookEntries(parts, { endless: true }).map((e) => [e.name, e]));
    expect(byName['session-end']).toMatchObject({ event: 'SessionEnd', timeout: 10, mode: 'ensure' });
    expect(byName['session-start']).toMatchObject({ event: 'SessionStart', timeout: 5, mode: 'ensure' });
    expect(byName['post-tool-use']).toMatchObject({ event: 'PostToolUse', timeout: 90, matcher: '*', mode: 'ensure' });
  });

  it('only refreshes an existing Endless hook when --endless is not given', () => {
    const endless = recallHookEntries(parts, { endless: false }).find((e) => e.name === 'post-tool-use');
    expect(endless?.mode).toBe('refresh');
  });

  it('gives Codex its own --agent flag, the 3 s SessionEnd timeout Codex caps it at, and the Endless hook', () => {
    const codex = { ...parts, agent: 'codex' as const };
    expect(buildHookCommand(codex, 'session-start')).toBe('"/usr/local/bin/node" "/home/me/recall/dist/cli/main.js" hook session-start --agent codex');
    expect(recallHookName(buildHookCommand(codex, 'session-end'))).toBe('session-end');
    const byName = Object.fromEntries(recallHookEntries(codex, { endless: true }).map((e) => [e.name, e]));
    expect(byName['session-end']).toMatchObject({ event: 'SessionEnd', timeout: 3 });
    expect(byName['session-start']).toMatchObject({ event: 'SessionStart', timeout: 5 });
    expect(byName['post-tool-use']).toMatchObject({ event: 'PostToolUse', mode: 'ensure', matcher: '*' });
  });

  it("gives Gemini CLI AfterTool for the Endless hook and timeouts in milliseconds", () => {
    const gemini = { ...parts, agent: 'gemini' as const };
    const byName = Object.fromEntries(recallHookEntries(gemini, { endless: true }).map((e) => [e.name, e]));
    expect(byName['session-end']).toMatchObject({ event: 'SessionEnd', timeout: 10_000, mode: 'ensure' });
    expect(byName['session-start']).toMatchObject({ event: 'SessionStart', timeout: 5_000, mode: 'ensure' });
    expect(byName['post-tool-use']).toMatchObject({ event: 'AfterTool', timeout: 90_000, matcher: '*', mode: 'ensure' });
    expect(byName.stop).toMatchObject({ mode: 'refresh' });
    expect(buildHookCommand(gemini, 'session-end')).toMatch(/hook session-end --agent gemini$/);
  });

  it("gives Qwen Code Claude Code's event names, timeouts in seconds, Stop for sessions without SessionEnd, and the Endless hook", () => {
    const qwen = { ...parts, agent: 'qwen' as const };
    const byName = Object.fromEntries(recallHookEntries(qwen, { endless: true }).map((e) => [e.name, e]));
    expect(byName['session-end']).toMatchObject({ event: 'SessionEnd', timeout: 10, mode: 'ensure' });
    expect(byName['session-start']).toMatchObject({ event: 'SessionStart', timeout: 5, mode: 'ensure' });
    expect(byName.stop).toMatchObject({ event: 'Stop', timeout: 5, mode: 'ensure' });
    expect(byName['post-tool-use']).toMatchObject({ event: 'PostToolUse', timeout: 90, matcher: '*', mode: 'ensure' });
    expect(buildHookCommand(qwen, 'stop')).toMatch(/hook stop --agent qwen$/);
    expect(replacesToolOutput('qwen')).toBe(true);
  });

  it('never adds the Endless hook for Factory, whose droid ignores what the hook answers', () => {
    const factory = recallHookEntries({ ...parts, agent: 'factory' }, { endless: true }).find((e) => e.name === 'post-tool-use');
    expect(factory?.mode).toBe('refresh');
  });

  it('recognises its own commands in every form they take', () => {
    expect(recallHookName(buildHookCommand(parts, 'session-end'))).toBe('session-end');
    expect(recallHookName('node "${CLAUDE_PLUGIN_ROOT}/dist/cli/main.cjs" hook session-start')).toBe('session-start');
    expect(recallHookName('node "${CLAUDE_PLUGIN_ROOT}/dist/cli/main.js" hook session-start')).toBe('session-start');
    expect(recallHookName('"/usr/bin/node" "/opt/recall/dist/cli/main.cjs" hook session-end --agent codex')).toBe('session-end');
    expect(recallHookName('node /old/checkout/dist/cli/main.js hook post-tool-use --agent factory')).toBe('post-tool-use');
    expect(recallHookName('recall hook session-end')).toBe('session-end');
    expect(recallHookName('/usr/local/bin/recall hook session-end')).toBe('session-end');
    expect(recallHookName('"C:\\Program Files\\recall\\dist\\cli\\main.js" hook session-end')).toBe('session-end');
  });

  it('does not take other tools\' hooks for its own', () => {
    expect(recallHookName('echo bye')).toBeNull();
    expect(recallHookName('myrecall hook session-end')).toBeNull();
    expect(recallHookName('recall hook session-ender')).toBeNull();
    expect(recallHookName('node /x/dist/cli/main.js hook other-event')).toBeNull();
    expect(recallHookName('node /x/dist/cli/main.mjs hook session-end')).toBeNull();
    expect(recallHookName(42)).toBeNull();
  });
});
