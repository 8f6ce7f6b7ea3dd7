/**
 * The repository doubles as a Claude Code plugin. Schema facts checked here (Claude Code plugin docs):
 * - .claude-plugin/plugin.json: `name` required, kebab-case; `version` semver; `author` an object with `name`.
 * - hooks/hooks.json is loaded automatically; declaring "./hooks/hooks.json" in the manifest's `hooks`
 *   makes Claude Code refuse it as a duplicate, so the manifest must not name it.
 * - hooks.json wraps the settings shape in `{ "description"?, "hooks": { Event: [ { matcher?, hooks: [ {type, command, timeout?} ] } ] } }`
 *   and refers to plugin files through ${CLAUDE_PLUGIN_ROOT}.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { HOOK_NAMES, RECALL_HOOKS, recallHookName } from '../../../src/install/recall-hooks.js';

const root = (path: string) => fileURLToPath(new URL(`../../../${path}`, import.meta.url));
const readJson = (path: string) => JSON.parse(readFileSync(root(path), 'utf8')) as Record<string, unknown>;

const KNOWN_EVENTS = ['PreToolUse', 'PostToolUse', 'Notification', 'UserPromptSubmit', 'Stop', 'SubagentStop', 'PreCompact', 'SessionStart', 'SessionEnd'];

describe('the Claude Code plugin manifest', () => {
  const manifest = readJson('.claude-plugin/plugin.json');
  const pkg = readJson('package.json');

  it('has a kebab-case name, a description and an author object with a name', () => {
    expect(manifest.name).toMatch(/^[a-z][a-z0-9]*(-[a-z0-9]+)*$/);
    expect(typeof manifest.description).toBe('string');
    expect(manifest.author).toEqual(expect.objectContaining({ name: expect.any(String) }));
  });

  it('carries the package version as semver', () => {
    expect(manifest.version).toMatch(/^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/);
    expect(manifest.version).toBe(pkg.version);
  });

  it('names the CommonJS build of the entry point, which starts without the ESM loader, as the recall bin', () => {
    expect(pkg.bin).toEqual({ recall: 'dist/cli/main.cjs' });
    const bin = readFileSync(root('dist/cli/main.cjs'), 'utf8');
    expect(bin.startsWith('#!/usr/bin/env node\n"use strict";')).toBe(true);
  });

  it('does not name the standard hooks/hooks.json, which Claude Code loads on its own', () => {
    expect(manifest.hooks).toBeUndefined();
  });
});

describe("the plugin's hooks/hooks.json", () => {
  const file = readJson('hooks/hooks.json');
  const hooks = file.hooks as Record<string, { matcher?: unknown; hooks: Record<string, unknown>[] }[]>;

  it('wraps known events in a hooks object, each a list of matcher groups with command hooks', () => {
    expect(hooks).toBeTypeOf('object');
    for (const [event, groups] of Object.entries(hooks)) {
      expect(KNOWN_EVENTS).toContain(event);
      expect(Array.isArray(groups)).toBe(true);
      for (const group of groups) {
        if (group.matcher !== undefined) expect(typeof group.matcher).toBe('string');
        expect(group.hooks.length).toBeGreaterThan(0);
        for (const hook of group.hooks) {
          expect(hook.type).toBe('command');
          expect(typeof hook.command).toBe('string');
          expect(Number.isInteger(hook.timeout) && (hook.timeout as number) > 0).toBe(true);
        }
      }
    }
  });

  it('runs SessionEnd and SessionStart through the built CLI under ${CLAUDE_PLUGIN_ROOT}, with the same timeouts as `recall install`', () => {
    for (const name of ['session-end', 'session-start'] as const) {
      const spec = RECALL_HOOKS[name];
      const [hook] = hooks[spec.event]?.flatMap((g) => g.hooks) ?? [];
      expect(hook?.command).toBe(`node "\${CLAUDE_PLUGIN_ROOT}/dist/cli/main.cjs" hook ${name}`);
      expect(hook?.timeout).toBe(spec.timeout);
      expect(recallHookName(hook?.command)).toBe(name);
    }
  });

  it('leaves Endless Mode out, since it is opt-in', () => {
    expect(hooks.PostToolUse).toBeUndefined();
  });

  it('points at an entry point the build produces', () => {
    expect(existsSync(root('src/cli/main.ts'))).toBe(true);
    expect(HOOK_NAMES).toEqual(expect.arrayContaining(['session-end', 'session-start']));
  });
});
